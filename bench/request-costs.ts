// §1b, a ladder from ky by hand to the SDK: each rung adds one piece of src/core/transport.ts, paired.
import ky from 'ky';
import pRetry from 'p-retry';
import { Deadline } from '../src/core/abort.js';
import { Quota } from '../src/core/quota.js';
import { backoff, isRetryable } from '../src/core/retry.js';
import { Transport } from '../src/core/transport.js';
import { parseResponse } from '../src/core/validate.js';
import { resolveClientOptions } from '../src/resolve-options.js';
import { shapes } from '../src/schemas/shapes.js';
import { MOCK_API_KEY } from '../src/testing/index.js';
import { named, range, signed, table, us, x } from './format.js';
import { compare, paired, pairedDifferences, scaled, sdk, sdkHeaders, withServer } from './lib.js';
import type { Report, Results } from './report.js';
import { names, requestRatio, requestWall } from './request.js';

const title = "Where the SDK's time goes, beyond ky by hand";
export const about = { id: '1b', key: 'costs', file: 'request-costs.ts', title };
const alternativeName =
  'ky by hand with ky’s own timeout (headers and body, through its .text()), no signal per call';
/** The ratio over ky by hand that the ladder looks for a way to. */
const hoped = 1.05;

async function ladder(url: string) {
  const [client, headers] = [await sdk(url), await sdkHeaders(url)];
  const transport = new Transport(resolveClientOptions({ apiKey: MOCK_API_KEY, baseUrl: url }), new Quota());
  const settings = { retry: 0, timeout: false, throwHttpErrors: false, headers } as const;
  // The SDK hands each attempt's signal to fetch as an option ky forwards, not as ky's `signal`.
  const forwarded = 'scholarlyMetricsAttemptSignal';
  const signalOf = (init: unknown) => ({ signal: (init as Record<string, AbortSignal>)[forwarded] });
  const [k, kyTimed] = [ky.create(settings), ky.create({ ...settings, timeout: 60_000 })];
  const kf = ky.create({ ...settings, fetch: (input, init) => fetch(input, signalOf(init)) });
  const path = (i: number) => `/journals/${(i % 400) + 1}`;
  const carrying = (signal: AbortSignal): Record<string, unknown> => ({ [forwarded]: signal });
  const deadlined = async (i: number, parse: (text: string) => unknown = JSON.parse) => {
    const deadline = new Deadline(60_000, undefined);
    try {
      const response = await deadline.race(kf.get(url + path(i), carrying(deadline.signal)));
      return parse(await deadline.race(response.text()));
    } finally {
      deadline.clear();
    }
  };
  const retried = (i: number, parse?: (text: string) => unknown) =>
    pRetry(() => deadlined(i, parse), { ...backoff, retries: 2, shouldRetry: (e) => isRetryable(e.error) });
  const shape = shapes.journalProfile;
  return {
    'ky by hand': async (i) => JSON.parse(await (await k.get(url + path(i))).text()),
    '+ a signal per attempt, forwarded past ky to fetch (as the SDK does: no AbortSignal.any)': async (i) =>
      JSON.parse(await (await kf.get(url + path(i), carrying(new AbortController().signal))).text()),
    '+ the attempt’s Deadline (a controller, a timer, two races)': (i) => deadlined(i),
    '+ p-retry around the attempt': (i) => retried(i),
    '+ parseResponse (JSON.parse, safeParse through the generated parser)': (i) =>
      retried(i, (text) => parseResponse(shape, text, MOCK_API_KEY)),
    'the SDK’s Transport.get (+ option checks, URL, quota branch, request id, the answer object)': (i) =>
      transport.get(() => ({ path: path(i) }), shape).then((answer) => answer.data),
    'scholarly-metrics: client.journals.get (+ the id check, APIPromise)': (i) =>
      client.journals.get((i % 400) + 1),
    [alternativeName]: async (i) => JSON.parse(await kyTimed.get(url + path(i)).text()),
  } satisfies Record<string, (i: number) => unknown>;
}

export const measure = () =>
  withServer({ kind: 'mock' }, async ({ url }) => {
    const options = { rounds: scaled(200, 6), batch: scaled(20, 5), warmup: scaled(300, 5) };
    const runs = await ladder(url);
    const rungNames = Object.keys(runs).filter((name) => name !== alternativeName);
    const { rounds, batch, samples, contenders } = await compare(runs, options);
    const added = (a: string, b: string) => paired(samples, a, b, pairedDifferences);
    const rung = (name: string, n: number) => {
      const before = n > 0 && added(name, rungNames[n - 1]!);
      return { ...named(contenders, name), ...(before && { addedWall: before.wall, addedCpu: before.cpu }) };
    };
    // The alternative replaces the rung with a signal and a Deadline.
    const savedWall = added(rungNames[2]!, alternativeName).wall;
    const alternative = { ...named(contenders, alternativeName), savedWall };
    return { alternative, rounds, batch, rungs: rungNames.map(rung) };
  });

/** What limits the ratio over ky by hand, and what would bring it to the hoped-for one. */
function limits(costs: Results['costs'], results: Results): string {
  const [first, ...added] = costs.rungs;
  const extraWall = costs.rungs[costs.rungs.length - 1]!.wall.median - first!.wall.median;
  const kyWall = requestWall(results, 0, names.ky);
  const overKy = (n: number) => requestRatio(results, n, names.sdk, names.ky).wall.median;
  const kyOverFetch = x(requestRatio(results, 0, names.ky, names.fetch).wall.median);
  const biggest = [...added].sort((a, b) => b.addedCpu!.median - a.addedCpu!.median);
  const wallAdded = (n: number) => costs.rungs[n]?.addedWall?.median;
  const cost = (n: number) => signed(wallAdded(n) ?? Number.NaN, us);
  const removable = [3, 6, 5].reduce((sum, n) => sum + Math.max(0, wallAdded(n) ?? 0), 0);
  const adds = Math.max(0, (overKy(0) - 1) * kyWall);
  const projected = 1 + Math.max(0, adds - removable) / kyWall;
  const { alternative: alt } = costs;
  const saved = alt.savedWall.median;
  const altVerdict =
    saved > 0
      ? `${us(saved)} of wall less than the rung with a signal and a Deadline: worth trying, though a caller's own signal would still go through \`AbortSignal.any\``
      : `${us(-saved)} of wall more than the rung with a signal and a Deadline (ky's timeout brings timers and races of its own): no help`;
  const conclusion =
    projected > hoped
      ? `${x(hoped)} on loopback needs more than the SDK's own bookkeeping: a cheaper way for ky to carry a per-attempt signal and timer (upstream), or a request path without ky`
      : `${x(hoped)} looks within reach only if nearly all of that bookkeeping goes, leaving the signal and the \`Deadline\``;
  return `Single rungs are indications (their quartiles span tens of µs here); their sum, ${us(extraWall)} of wall from ky by
hand to the SDK, is the firm part. Largest first by added CPU: ${biggest.map((r) => `${r.name.replace(/^\+ /, '')} (${signed(r.addedCpu!.median, us)})`).join('; ')}.

**What limits it.** ky by hand is already ${kyOverFetch} a bare \`fetch\` (ky 2.1 merges options into two \`Headers\`, makes
its own \`AbortController\` and a \`Request\` that \`fetch\` wraps again). The SDK adds a signal per attempt (past ky, which
would join it with \`AbortSignal.any\`), the \`Deadline\` (covering the body), p-retry, the body's check, its bookkeeping.

**What would reach ${x(hoped)}** (estimates from the ladder: src/ is not the benchmark's to change): it leaves about
${us(kyWall * (hoped - 1))} per loopback request for the SDK, which adds ${us(adds)} (section 1). Without changing behaviour, p-retry's setup on
success (${cost(3)}: a first attempt run directly), the lazy \`APIPromise\` (${cost(6)} with the id check) and part of the
Transport's per-call objects (${cost(5)}) could go: at most ${us(removable)}, leaving about ${x(projected)}. The rest is the signal per
attempt (${cost(1)}) and the \`Deadline\` (${cost(2)}). ${alt.name}: ${us(alt.wall.median)} per request (CPU ${us(alt.cpu.median)}), ${altVerdict}.
So ${conclusion}. At 5 ms the SDK is ${x(overKy(1))} ky by hand (section 1).`;
}

export function report(costs: Results['costs'], results: Results): Report {
  const rows = costs.rungs.map((r) => {
    const added = r.addedWall
      ? [range(r.addedWall, (n) => signed(n, us)), signed(r.addedCpu!.median, us)]
      : ['', ''];
    return [r.name, us(r.wall.median), us(r.cpu.median), ...added];
  });
  const text = `A ladder on loopback (bench/request-costs.ts, ${costs.rounds} rounds of ${costs.batch}): each rung adds one piece of
src/core/transport.ts, from the SDK's own modules, up to the SDK itself; *added*: less the rung before, paired.

${table(['rung', 'wall per request', 'CPU per request', 'added wall (p25 to p75)', 'added CPU'], rows)}

${limits(costs, results)}`;
  return { text };
}
