// §4, memory: a million papers through one `for await`, each walk a fresh process with --expose-gc. The
// yardstick, ky by hand, goes through ky and `fetch` too: what the SDK's walk adds over it is the SDK's.
import { Agent, get } from 'node:http';
import { text } from 'node:stream/consumers';
import ky from 'ky';
import { userAgent } from '../src/core/user-agent.js';
import { atMost, count, find, mb, table, x } from './format.js';
import { collectGarbage, inChild, loadSdk, median, roundRobin, scaled, withServer } from './lib.js';
import type { Report } from './report.js';

export const about = { id: '4', key: 'memory', file: 'memory.ts', title: 'Memory' };
const config = { items: scaled(1_000_000, 20_000), perPage: 100, rounds: scaled(3, 1) };
const apiKey = 'sk_bench_memory';

const walkNames = {
  'sdk 1': 'scholarly-metrics for await, prefetch 1',
  'sdk 8': 'scholarly-metrics for await, prefetch 8',
  ky: 'ky by hand + JSON.parse loop',
  'ky, checked': 'ky by hand + JSON.parse + the shape’s safeParse loop',
  fetch: 'fetch + JSON.parse loop',
  http: 'node:http + JSON.parse loop (no fetch)',
};
type Walker = keyof typeof walkNames;
/** As results.json has them. */
type Contender = { kind: 'sdk'; prefetch: number } | { kind: Exclude<Walker, 'sdk 1' | 'sdk 8'> };
const walker = (c: Contender): Walker => (c.kind === 'sdk' ? `sdk ${c.prefetch as 1 | 8}` : c.kind);

/** Every paper of the walk, in order. By hand: the SDK's settings and headers (src/core/transport.ts). */
async function* walk(contender: Contender, baseUrl: string): AsyncGenerator<{ id: number }> {
  if (contender.kind === 'sdk') {
    // The SDK alone: a client built through lib's `sdk` would load the mock's module too.
    const client = new (await loadSdk()).MetricClient({ apiKey, baseUrl });
    return yield* client.journals.papers(1, { per_page: config.perPage }, { prefetch: contender.prefetch });
  }
  const [agentName, { kind }] = [userAgent(), contender];
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${apiKey}` };
  if (agentName) headers['user-agent'] = agentName;
  const byHand = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers });
  // node:http, keep-alive, no `fetch`: the runtime's floor for the same requests.
  const agent = new Agent({ keepAlive: true });
  const httpText = (url: string) =>
    new Promise<string>((resolve, reject) =>
      get(url, { agent }, (res) => resolve(text(res))).on('error', reject),
    );
  const load = async (url: string) => {
    if (kind === 'fetch') return (await fetch(url, { headers })).text();
    return kind === 'http' ? httpText(url) : (await byHand.get(url)).text();
  };
  // The SDK's check of each page (its generated parser), loaded only when used.
  const { shapes } = kind === 'ky, checked' ? await import('../src/schemas/shapes.js') : {};
  const check = shapes?.journalPaperPage.parse;
  const pages = `${baseUrl}/journals/1/papers?per_page=${config.perPage}&page=`;
  for (let page = 1, seen = 0; ; page++) {
    const parsed = JSON.parse(await load(pages + page));
    const body = (check ? check(parsed) : parsed) as { data: Array<{ id: number }>; total: number } | symbol;
    if (typeof body === 'symbol') throw new Error('the generated parser refused the page');
    yield* body.data;
    seen += body.data.length;
    if (body.data.length === 0 || seen >= body.total) break;
  }
  agent.destroy();
}

/** One walk, in this process (started by `measure` with --expose-gc); sizes in MB. */
export const walkOnce = (contender: Contender) =>
  withServer({ kind: 'synth', total: config.items }, async ({ url }) => {
    const toMB = (bytes: number) => bytes / 1024 / 1024;
    // Load and compile what a walk uses (its first three pages), so that it is not counted as growth.
    let warm = 0;
    for await (const _ of walk(contender, url)) if (++warm === config.perPage * 3) break;
    await collectGarbage();
    const baseline = process.memoryUsage();
    let [expected, ordered] = [1, true];
    const started = performance.now();
    for await (const paper of walk(contender, url)) if (paper.id !== expected++) ordered = false;
    const seconds = (performance.now() - started) / 1000;
    await collectGarbage();
    const [items, baselineMB] = [expected - 1, toMB(baseline.rss)];
    // Peak RSS is the kernel's high-water mark; what the walk kept, the heap in use less the same before.
    const maxRssMB = process.resourceUsage().maxRSS / 1024;
    const retainedMB = toMB(process.memoryUsage().heapUsed - baseline.heapUsed);
    const sizes = { baselineMB, maxRssMB, growthMB: maxRssMB - baselineMB, retainedMB };
    return { contender, items, ...sizes, seconds, ordered: ordered && items === config.items, round: 0 };
  });
type Walk = Awaited<ReturnType<typeof walkOnce>>;

/** The compared walks round-robin, a fresh process each; then the runtime's own loops once, for reference. */
export async function measure() {
  const compared: Contender[] = [1, 8].map((prefetch) => ({ kind: 'sdk', prefetch }));
  compared.push({ kind: 'ky' }, { kind: 'ky, checked' });
  const walks: Walk[] = [];
  const once = async (arg: Contender, round: number) => {
    const walk = await inChild<Walk>('memory.ts', { fn: 'walkOnce', arg, execArgv: ['--expose-gc'] });
    walks.push({ ...walk, round });
  };
  const byName = new Map(compared.map((c) => [walker(c), c]));
  await roundRobin([...byName.keys()], config.rounds, (name, round) => once(byName.get(name)!, round));
  for (const kind of ['fetch', 'http'] as const) await once({ kind }, 0);
  return walks;
}

/** Peak RSS of an SDK walk over ky's in the same round, and the worst heap an SDK walk kept. */
export function report(walks: Walk[]): Report {
  const of = (name: Walker) => walks.filter((w) => walker(w.contender) === name);
  const overKy = (name: Walker) =>
    median(of(name).map((w) => w.maxRssMB / find(of('ky'), (k) => k.round === w.round, 'ky').maxRssMB));
  const typical = (name: Walker, key: 'baselineMB' | 'growthMB') => mb(median(of(name).map((w) => w[key])));
  const retained = Math.max(...[...of('sdk 1'), ...of('sdk 8')].map((w) => w.retainedMB));
  const [peak1, peak8, items] = [overKy('sdk 1'), overKy('sdk 8'), walks[0]!.items];
  const what = `${count(items)} items through \`for await\`: peak RSS, SDK walk ÷ ky by hand walk (paired per round)`;
  const kept = 'heap kept after the walk and a full GC (the worst SDK walk)';
  const ordered = walks.every((w) => w.ordered);
  const rows = [
    atMost(what, `${x(peak1)} at prefetch 1, ${x(peak8)} at prefetch 8`, peak1, 1.1, x(1.1, 1), ordered),
    atMost(kept, mb(retained), retained, 5, '5 MB'),
  ];
  const cells = walks.map((w) => {
    const time = `${w.seconds.toFixed(1)} s${w.ordered ? '' : ' (**out of order**)'}`;
    const sizes = [w.baselineMB, w.maxRssMB, w.growthMB, w.retainedMB].map(mb);
    return [walkNames[walker(w.contender)], String(w.round + 1), ...sizes, time];
  });
  const text = `${count(items)} papers, ${config.perPage} per page (${count(items / config.perPage)} requests), through one \`for await\`, each walk a fresh process with
\`--expose-gc\`, ${Math.max(...walks.map((w) => w.round)) + 1} rounds of the compared walks, round-robin; every walk checks it got papers 1 to ${count(items)} in order.
The yardstick: the same walk by ky by hand (the SDK's ky settings and headers). *peak RSS*: the kernel's \`maxRSS\`.
*kept*: heap in use after the walk and a full collection (\`gc()\` a timer turn apart until the heap stops shrinking:
Node's \`fetch\` frees its per-response bookkeeping a turn later) less the same before, after a short first walk.

${table(['walk', 'round', 'baseline RSS', 'peak RSS', 'growth', 'heap kept after a full GC', 'time'], cells)}

Medians, baseline RSS / growth: the SDK's walk ${typical('sdk 1', 'baselineMB')} / ${typical('sdk 1', 'growthMB')}; ky by hand ${typical('ky', 'baselineMB')} / ${typical('ky', 'growthMB')}; ky by hand with the SDK's \`safeParse\`, growth
${typical('ky, checked', 'growthMB')} (its baseline is not comparable: tsx compiles the schemas from src/ there). The ratio is limited by
the SDK's code, zod and the parsers loaded (the baselines), the check's second copy of each item, and at prefetch 1
the next page held while one is walked. Growth is mostly V8 sizing its young generation, which moves with the load.
\`fetch\` + \`JSON.parse\` alone grows by ${typical('fetch', 'growthMB')}, \`node:http\` + \`JSON.parse\` by ${typical('http', 'growthMB')}: the difference is Node's
\`fetch\` (undici), whatever client sits on it, hence a yardstick through the same \`fetch\` and ky.`;
  return { rows, text };
}
