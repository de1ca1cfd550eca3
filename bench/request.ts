// §1, per request: the yardstick is ky used by hand with the SDK's own `ky.create` settings and
// headers, so that what the SDK adds on top is its own cost.
import ky from 'ky';
import createClient from 'openapi-fetch';
import type { JournalProfile } from '../src/index.js';
import { atMost, named, ratioOf, timesTables, x } from './format.js';
import { compare, scaled, sdk, sdkHeaders, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '1', key: 'request', file: 'request.ts', title: 'Per request' };
export const names = {
  fetch: 'fetch + JSON.parse',
  ky: 'ky by hand (.text() + JSON.parse)',
  openapi: 'openapi-fetch',
  sdk: 'scholarly-metrics',
  sdkQueued: 'scholarly-metrics, maxConcurrency 1,000,000',
} as const;

/** The one path of the API document as openapi-typescript writes it: what openapi-fetch is typed from. */
type Answer = { 200: { headers: Record<string, unknown>; content: { 'application/json': JournalProfile } } };
type paths = { '/journals/{id}': { get: { parameters: { path: { id: number } }; responses: Answer } } };

async function contenders(url: string, headers: Record<string, string>, queued: boolean) {
  // The SDK's settings exactly (src/core/transport.ts): one instance, full URLs, no `baseUrl`.
  const kyHand = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers });
  const openapi = createClient<paths>({ baseUrl: url, headers });
  const [client, clientQueued] = [await sdk(url), await sdk(url, { maxConcurrency: 1_000_000 })];
  const id = (i: number) => (i % 400) + 1;
  const target = (i: number) => `${url}/journals/${id(i)}`;
  return {
    [names.fetch]: async (i: number) => JSON.parse(await (await fetch(target(i), { headers })).text()),
    [names.ky]: async (i: number) => JSON.parse(await (await kyHand.get(target(i))).text()),
    [names.openapi]: async (i: number) =>
      (await openapi.GET('/journals/{id}', { params: { path: { id: id(i) } } })).data,
    [names.sdk]: (i: number) => client.journals.get(id(i)),
    ...(queued && { [names.sdkQueued]: (i: number) => clientQueued.journals.get(id(i)) }),
  };
}

/** One phase: the server holding each answer `latencyMs` (0: loopback as fast as it goes). */
const phase = (latencyMs: number, queued: boolean, rounds: number, batch: number) =>
  withServer({ kind: 'mock', options: { faults: { latencyMs } } }, async ({ url }) => {
    const headers = await sdkHeaders(url);
    const runs = await contenders(url, headers, queued);
    // At 2 s or less, Node's fetch opens a connection per request.
    const keepAlive = (await fetch(`${url}/journals/1`, { headers })).headers.get('keep-alive');
    const pairs: [string, string][] = [[names.sdk, names.ky]];
    if (queued) pairs.push([names.sdkQueued, names.ky], [names.sdkQueued, names.sdk]);
    pairs.push([names.sdk, names.openapi], [names.sdk, names.fetch], [names.ky, names.fetch]);
    pairs.push([names.openapi, names.fetch]);
    const warmup = scaled(latencyMs > 0 ? 50 : 300, 5);
    const { samples: _, ...figures } = await compare(runs, { rounds, batch, warmup, same: 5 }, pairs);
    return { latencyMs, ...figures, headers: Object.keys(headers).sort(), keepAlive };
  });

/** Loopback carries the queued contender: there the SDK's own costs weigh the most. */
export async function measure() {
  const loopback = await phase(0, true, scaled(200, 6), scaled(20, 5));
  return { phases: [loopback, await phase(5, false, scaled(80, 4), scaled(10, 3))] };
}

type Phase = Awaited<ReturnType<typeof phase>>;
const phaseName = (p: Phase) => (p.latencyMs === 0 ? 'loopback' : `${p.latencyMs} ms latency`);

/** A paired ratio of phase `n` (0: loopback), and a contender's wall µs per request there. */
export const requestRatio = (results: Results, n: number, of: string, to: string) =>
  ratioOf(results.request.phases[n]!.ratios, of, to);
export const requestWall = (results: Results, n: number, name: string) =>
  named(results.request.phases[n]!.contenders, name).wall.median;

function phaseText(p: Phase): string {
  const reused = /timeout=[0-2]\b/.test(p.keepAlive ?? '')
    ? ' — **2 s or less: Node’s fetch opens a new connection for every request, and connection setup dominates these figures**'
    : ': connections are reused';
  const loopback = p.latencyMs === 0;
  const held = `The mock holds every answer ${p.latencyMs} ms (\`faults.latencyMs\`).`;
  return `### ${loopback ? 'On loopback' : `At ${p.latencyMs} ms of latency`}

${loopback ? 'No delay: the client’s own costs weigh the most.' : held} ${p.rounds} rounds of ${p.batch} requests per contender; the
server's keep-alive hint was \`${p.keepAlive ?? 'none'}\`${reused}.

${timesTables(p)}`;
}

export function report(request: Results['request'], results: Results): Report {
  const ratio = (n: number, to: string) => requestRatio(results, n, names.sdk, to);
  const judged = (to: string, label: string, limit: number) =>
    request.phases.map((p, n) => {
      const { wall, cpu } = ratio(n, to);
      const what = `one request, ${phaseName(p)}: scholarly-metrics ÷ ${label}`;
      return atMost(what, `${x(wall.median)} (CPU ${x(cpu.median)})`, wall.median, limit);
    });
  const what = 'one request: scholarly-metrics ÷ fetch + JSON.parse, loopback / 5 ms';
  const overFetch = request.phases.map((_, n) => x(ratio(n, names.fetch).wall.median)).join(' / ');
  const rows = [...judged(names.ky, 'ky by hand', 1.1), ...judged(names.openapi, 'openapi-fetch', 1.3)];
  const text = `\`GET /journals/{id}\` (a journal profile, about 250 bytes), one request at a time, ids 1–400 in turn, every
contender with the SDK's headers (${request.phases[0]!.headers.map((h) => `\`${h}\``).join(', ')}) and the same answers (checked first).
*ky by hand*: one \`ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers })\`, full URLs, \`.text()\`,
\`JSON.parse\`: the SDK's own ky settings. *wall*, *CPU*: time and this process's CPU time per request.

${request.phases.map(phaseText).join('\n\n')}`;
  return { rows: [...rows, { what, figure: overFetch }], text };
}
