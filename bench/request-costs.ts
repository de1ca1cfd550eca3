// §1b, where the SDK's time per request goes beyond ky used by hand: a ladder, each rung adding one
// piece of what src/core/transport.ts does, built from its own modules; a rung less the one before,
// paired per round, is that piece's cost.
import ky from 'ky';
import pRetry from 'p-retry';
import { Deadline } from '../src/core/abort.js';
import { Quota } from '../src/core/quota.js';
import { backoff, isRetryable } from '../src/core/retry.js';
import { Transport } from '../src/core/transport.js';
import { parseResponse } from '../src/core/validate.js';
import { resolveClientOptions } from '../src/resolve-options.js';
import { shapes } from '../src/schemas/shapes.js';
import { range, signed, table, us, x } from './format.js';
import {
  compare,
  loadTesting,
  pairedDifferences as minus,
  scaled,
  sdk,
  sdkHeaders,
  spread,
  withServer,
} from './lib.js';
import type { Results } from './report.js';
import { requestNames, requestRatio, requestWall } from './request.js';

export const about = { id: '1b', key: 'costs', file: 'request-costs.ts' } as const;
const alternativeName =
  'ky by hand with ky’s own timeout (headers and body, through its .text()), no signal per call';
const rungNames = [
  'ky by hand',
  '+ a signal per attempt, forwarded past ky to fetch (as the SDK does: no AbortSignal.any)',
  '+ the attempt’s Deadline (a controller, a timer, two races)',
  '+ p-retry around the attempt',
  '+ parseResponse (JSON.parse, safeParse through the generated parser)',
  'the SDK’s Transport.get (+ option checks, URL, quota branch, request id, the answer object)',
  'scholarly-metrics: client.journals.get (+ the id check, APIPromise)',
] as const;
/** The ratio over ky by hand that the ladder looks for a way to. */
const hoped = 1.05;

/** Each rung's operation, and the alternative's, in the order of rungNames. */
async function ladder(url: string) {
  const { MOCK_API_KEY } = await loadTesting();
  const client = await sdk(url);
  const headers = await sdkHeaders(url);
  const transport = new Transport(resolveClientOptions({ apiKey: MOCK_API_KEY, baseUrl: url }), new Quota());
  const settings = { retry: 0, timeout: false, throwHttpErrors: false, headers } as const;
  const k = ky.create(settings);
  // The SDK hands each attempt's signal to fetch as an option ky forwards, not as ky's `signal`.
  const forwarded = 'scholarlyMetricsAttemptSignal';
  const kf = ky.create({
    ...settings,
    fetch: (input, init) => fetch(input, { signal: (init as Record<string, AbortSignal>)[forwarded] }),
  });
  const kyTimed = ky.create({ ...settings, timeout: 60_000 });
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
    pRetry(() => deadlined(i, parse), {
      ...backoff,
      retries: 2,
      shouldRetry: ({ error }) => isRetryable(error),
    });
  const shape = shapes.journalProfile;
  return {
    rungs: [
      async (i: number) => JSON.parse(await (await k.get(url + path(i))).text()),
      async (i: number) =>
        JSON.parse(await (await kf.get(url + path(i), carrying(new AbortController().signal))).text()),
      (i: number) => deadlined(i),
      (i: number) => retried(i),
      (i: number) => retried(i, (text) => parseResponse(shape, text, MOCK_API_KEY)),
      async (i: number) => (await transport.get(() => ({ path: path(i) }), shape)).data,
      (i: number) => client.journals.get((i % 400) + 1),
    ],
    alternative: async (i: number) => JSON.parse(await kyTimed.get(url + path(i)).text()),
  };
}

export const measure = () =>
  withServer({ kind: 'mock' }, async ({ url }) => {
    const { rungs, alternative } = await ladder(url);
    const contenders = [
      ...rungNames.map((name, n) => ({ name, run: rungs[n]! })),
      { name: alternativeName, run: alternative },
    ];
    const options = { rounds: scaled(200, 6), batch: scaled(20, 5), warmup: scaled(300, 5) };
    const { rounds, batch, samples } = await compare(contenders, options);
    const of = (name: string) => samples.get(name)!;
    const added = (a: number[], b: number[]) => spread(minus(a, b));
    const [deadline, alt] = [of(rungNames[2]), of(alternativeName)];
    const rung = (name: string, n: number) => {
      const [own, before] = [of(name), n > 0 ? of(rungNames[n - 1]!) : undefined];
      const addedTo = before && {
        addedWall: added(own.wall, before.wall),
        addedCpu: added(own.cpu, before.cpu),
      };
      return { name, wall: spread(own.wall), cpu: spread(own.cpu), ...addedTo };
    };
    return {
      alternative: {
        name: alternativeName,
        wall: spread(alt.wall),
        cpu: spread(alt.cpu),
        savedWall: added(deadline.wall, alt.wall),
        savedCpu: added(deadline.cpu, alt.cpu),
      },
      rounds,
      batch,
      rungs: rungNames.map(rung),
    };
  });

type CostResult = Awaited<ReturnType<typeof measure>>;

/** What limits the ratio over ky by hand, and what would bring it to the hoped-for ratio. */
function limits(costs: CostResult, results: Results): string {
  const [first, ...added] = costs.rungs;
  const extraWall = costs.rungs[costs.rungs.length - 1]!.wall.median - first!.wall.median;
  const kyWall = requestWall(results, 0, requestNames.ky);
  const overKy = (n: number) => requestRatio(results, n, requestNames.sdk, requestNames.ky).wall.median;
  const kyOverFetch = requestRatio(results, 0, requestNames.ky, requestNames.fetch).wall.median;
  const biggest = [...added].sort((a, b) => b.addedCpu!.median - a.addedCpu!.median);
  const cost = (n: number) => costs.rungs[n]?.addedWall?.median ?? Number.NaN;
  const adds = Math.max(0, (overKy(0) - 1) * kyWall);
  const removable = Math.max(0, cost(3)) + Math.max(0, cost(6)) + Math.max(0, cost(5));
  const projected = 1 + Math.max(0, adds - removable) / kyWall;
  const { alternative: alt } = costs;
  const saved = alt.savedWall.median;
  const altVerdict =
    saved > 0
      ? `${us(saved)} of wall less than the rung with a signal and a Deadline: worth trying, though a caller's own signal would still go through \`AbortSignal.any\``
      : `${us(-saved)} of wall more than the rung with a signal and a Deadline (ky's timeout brings timers and races of its own): no help`;
  const conclusion =
    projected > hoped
      ? `So ${x(hoped)} on loopback needs more than the SDK's own bookkeeping: a cheaper way for ky to carry a per-attempt signal and timer (an upstream change), or a request path without ky, whose own per-call work is already ${x(kyOverFetch)} a bare \`fetch\` here.`
      : `So ${x(hoped)} looks within reach only if nearly all of that bookkeeping goes; the signal and the \`Deadline\` would then be what is left, and ky's own per-call work is already ${x(kyOverFetch)} a bare \`fetch\` here.`;
  return `Read with care: at this load each added figure's quartiles span tens of µs, so single rungs are
indications, and their sum (${us(extraWall)} of wall from ky by hand to the SDK in this ladder) is the firm part.
Largest first by added CPU: ${biggest.map((r) => `${r.name.replace(/^\+ /, '')} (${signed(r.addedCpu!.median, us)})`).join('; ')}.

**What limits it.** ky by hand is already ${x(kyOverFetch)} a bare \`fetch\` on loopback: ky 2.1 does per call
work no option skips (its options merged with the instance's into two \`Headers\`, its own
\`AbortController\`, a \`Request\` that \`fetch\` wraps again). Over that, the SDK does for every request: a
signal per attempt for \`fetch\` to follow, handed past ky as an option ky forwards (given to ky as
\`signal\`, ky would join it to its own with \`AbortSignal.any\` on every call); the attempt's \`Deadline\`
(a controller and a timer, so that the timeout covers the body too); p-retry, which copies and checks its
options and reads the clock on every call, even when the first attempt succeeds; the check of the body;
and its own bookkeeping (route, option checks, the quota's branch, the request id, the \`Answer\`, the lazy
\`APIPromise\`).

**What would reach ${x(hoped)}** (src/ is not the benchmark's to change, so these are estimates from the
ladder, not results): ${x(hoped)} of ky by hand leaves about ${us(kyWall * (hoped - 1))} per loopback request for everything the SDK
adds; it adds ${us(adds)} (section 1). What could go without changing what the SDK does:
- p-retry's setup on the success path (${signed(cost(3), us)}): run the first attempt directly and hand over to
  p-retry only when it fails with a retryable error;
- the lazy \`APIPromise\` (${signed(cost(6), us)} with the id check): a \`Promise\` subclass that defers its start by a
  microtask and adds two \`then\` hops;
- the Transport's per-call objects (${signed(cost(5), us)} for all of its bookkeeping, of which only a part can go).

Together at most ${us(removable)}, which would leave about ${x(projected)} on loopback. The rest is the timeout and
cancellation: a signal per attempt for \`fetch\` to follow (${signed(cost(1), us)}), and the \`Deadline\`
(${signed(cost(2), us)}). Tried beside the ladder as the other way to time an attempt out: ${alt.name},
${us(alt.wall.median)} per request (CPU ${us(alt.cpu.median)}), ${altVerdict}. ${conclusion} With any latency the question
fades: at 5 ms the SDK is ${x(overKy(1))} ky by hand (section 1).`;
}

export const text = (
  costs: CostResult,
  results: Results,
) => `### 1b. Where the SDK's time goes, beyond ky by hand

A ladder on loopback (bench/request-costs.ts, ${costs.rounds} rounds of ${costs.batch}): each rung adds one piece of what
src/core/transport.ts does, built from the SDK's own modules, up to the SDK itself. *added*: the rung
less the one before, paired per round.

${table(
  ['rung', 'wall per request', 'CPU per request', 'added wall (p25 to p75)', 'added CPU'],
  costs.rungs.map((r) => [
    r.name,
    us(r.wall.median),
    us(r.cpu.median),
    r.addedWall ? range(r.addedWall, (n) => signed(n, us)) : '',
    r.addedCpu ? signed(r.addedCpu.median, us) : '',
  ]),
)}

${limits(costs, results)}`;
