// §13, live dashboards: an event relay's fan-out. Many open event streams (in-process Fetch streams, each
// with a reader waiting, as a server's adapter would be), one event published: the time until the last
// stream has it, and the heap each open stream holds. Each round runs in a fresh process with --expose-gc.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { count, ms, type Row, table } from './format.js';
import { collectGarbage, dist, inChild, median, scaled } from './lib.js';

export const about = { id: '13', key: 'relay', file: 'relay.ts' } as const;

const config = { streams: 1_000, events: 20 };
const event = {
  event: 'score_updated',
  journal_id: 7,
  old_score: 61,
  new_score: 64,
  quartile: 'Q1',
  timestamp: '2024-05-01T12:00:00Z',
};

const loadWebhooks = (): Promise<typeof import('../src/webhooks/index.js')> =>
  import(pathToFileURL(join(dist, 'webhooks.js')).href);

/** One process: `streams` streams opened, then `events` events, each timed to its last arrival. */
export async function fanOutOnce(streams: number) {
  const { createEventRelay } = await loadWebhooks();
  const relay = createEventRelay({ maxClients: streams });
  await collectGarbage();
  const before = process.memoryUsage();
  const readers = Array.from({ length: streams }, () =>
    relay.handler(new Request('http://localhost/events')).body!.getReader(),
  );
  await Promise.all(readers.map((reader) => reader.read())); // the greeting
  await collectGarbage();
  const after = process.memoryUsage();
  const lastArrivals: number[] = [];
  const publishes: number[] = [];
  for (let n = 0; n < scaled(config.events, 3); n++) {
    const arrivals = readers.map((reader) => reader.read().then(() => performance.now()));
    const started = performance.now();
    const sent = relay.publish({ ...event, journal_id: n + 1 });
    publishes.push(performance.now() - started);
    const last = Math.max(...(await Promise.all(arrivals)));
    if (sent !== streams) throw new Error(`the event reached ${sent} of ${streams} streams`);
    lastArrivals.push(last - started);
  }
  relay.close();
  return {
    streams,
    lastArrivalMs: median(lastArrivals),
    publishMs: median(publishes),
    heapPerStreamBytes: (after.heapUsed - before.heapUsed) / streams,
    rssPerStreamBytes: (after.rss - before.rss) / streams,
    gc: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
}

type Round = Awaited<ReturnType<typeof fanOutOnce>>;

export async function measure() {
  const rounds: Round[] = [];
  for (let round = 0; round < scaled(5, 1); round++) {
    rounds.push(
      await inChild<Round>('relay.ts', { fn: 'fanOutOnce', arg: config.streams, execArgv: ['--expose-gc'] }),
    );
  }
  return {
    streams: config.streams,
    events: scaled(config.events, 3),
    rounds: rounds.length,
    lastArrivalMs: median(rounds.map((r) => r.lastArrivalMs)),
    publishMs: median(rounds.map((r) => r.publishMs)),
    heapPerStreamBytes: median(rounds.map((r) => r.heapPerStreamBytes)),
    rssPerStreamBytes: median(rounds.map((r) => r.rssPerStreamBytes)),
  };
}

type RelayResult = Awaited<ReturnType<typeof measure>>;

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function rows(r: RelayResult): Row[] {
  return [
    {
      what: `event relay: ${count(r.streams)} open streams, one event, until the last has it`,
      figure: ms(r.lastArrivalMs, 1),
    },
    { what: 'event relay: heap per open stream', figure: kB(r.heapPerStreamBytes) },
  ];
}

export const text = (r: RelayResult) => `## 13. Event relay fan-out

bench/relay.ts: \`createEventRelay()\` with ${count(r.streams)} open streams, in process (each a Fetch
\`Response\` whose body has a reader waiting, as a server's adapter would), ${r.events} events published one
after the other, each timed from \`publish\` until the last reader has it; ${r.rounds} rounds, each in a fresh
process with \`--expose-gc\`. Memory is the heap (and RSS) after a full collection with the streams open, less
the same before, divided by the streams: a real server adds its socket and HTTP bookkeeping per stream.

${table(
  ['what', 'median'],
  [
    [`time until the last of ${count(r.streams)} streams has the event`, ms(r.lastArrivalMs, 2)],
    ['of which `publish` itself (validation, encoding once, queueing to every stream)', ms(r.publishMs, 2)],
    ['heap per open stream', kB(r.heapPerStreamBytes)],
    ['RSS per open stream', kB(r.rssPerStreamBytes)],
  ],
)}`;
