// §13, an event relay's fan-out: the time until the last of many open streams has an event, heap per stream.
import { count, ms, table } from './format.js';
import { collectGarbage, inChild, loadDist, median, medians, scaled } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '13', key: 'relay', file: 'relay.ts', title: 'Event relay fan-out' };

const config = { streams: 1_000, events: scaled(20, 3) };
const event = { event: 'score_updated', journal_id: 7, old_score: 61, new_score: 64, quartile: 'Q1' };

/** One process: `streams` streams opened, then `events` events, each timed to its last arrival. */
export async function fanOutOnce(streams: number) {
  const { createEventRelay } = await loadDist<typeof import('../src/webhooks/index.js')>('webhooks.js');
  const relay = createEventRelay({ maxClients: streams });
  await collectGarbage();
  const before = process.memoryUsage();
  const open = () => relay.handler(new Request('http://localhost/events')).body!.getReader();
  const readers = Array.from({ length: streams }, open);
  await Promise.all(readers.map((reader) => reader.read())); // the greeting
  await collectGarbage();
  const after = process.memoryUsage();
  const [lastArrivals, publishes] = [[] as number[], [] as number[]];
  for (let n = 0; n < config.events; n++) {
    const arrivals = readers.map((reader) => reader.read().then(() => performance.now()));
    const started = performance.now();
    const sent = relay.publish({ ...event, journal_id: n + 1, timestamp: '2024-05-01T12:00:00Z' });
    publishes.push(performance.now() - started);
    const last = Math.max(...(await Promise.all(arrivals)));
    if (sent !== streams) throw new Error(`the event reached ${sent} of ${streams} streams`);
    lastArrivals.push(last - started);
  }
  relay.close();
  const perStream = (key: 'heapUsed' | 'rss') => (after[key] - before[key]) / streams;
  const [lastArrivalMs, publishMs] = [median(lastArrivals), median(publishes)];
  const [heapPerStreamBytes, rssPerStreamBytes] = [perStream('heapUsed'), perStream('rss')];
  return { streams, lastArrivalMs, publishMs, heapPerStreamBytes, rssPerStreamBytes };
}

type Round = Awaited<ReturnType<typeof fanOutOnce>>;

export async function measure() {
  const rounds: Round[] = [];
  const call = { fn: 'fanOutOnce', arg: config.streams, execArgv: ['--expose-gc'] };
  for (let round = 0; round < scaled(5, 1); round++) rounds.push(await inChild<Round>('relay.ts', call));
  const figures = medians(rounds, ['lastArrivalMs', 'publishMs', 'heapPerStreamBytes', 'rssPerStreamBytes']);
  return { streams: config.streams, events: config.events, rounds: rounds.length, ...figures };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function report(r: Results['relay']): Report {
  const what = `event relay: ${count(r.streams)} open streams, one event, until the last has it`;
  const heap = { what: 'event relay: heap per open stream', figure: kB(r.heapPerStreamBytes) };
  const rows = [
    [`time until the last of ${count(r.streams)} streams has the event`, ms(r.lastArrivalMs, 2)],
    ['of which `publish` itself (validation, encoding once, queueing to every stream)', ms(r.publishMs, 2)],
    ['heap per open stream', kB(r.heapPerStreamBytes)],
    ['RSS per open stream', kB(r.rssPerStreamBytes)],
  ];
  const text = `bench/relay.ts: \`createEventRelay()\` with ${count(r.streams)} open streams in process (each a Fetch \`Response\` whose body has a
reader waiting, as a server's adapter would), ${r.events} events published one after the other, each timed from
\`publish\` until the last reader has it; ${r.rounds} rounds, each a fresh process with \`--expose-gc\`. Memory: heap (and RSS)
after a full collection with the streams open, less the same before, per stream (a real server adds its sockets).

${table(['what', 'median'], rows)}`;
  return { rows: [{ what, figure: ms(r.lastArrivalMs, 1) }, heap], text };
}
