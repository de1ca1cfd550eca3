/** BENCHMARKS.md from the results of one run: figures, targets, and what limits each figure. */

import type { BodyReadResult } from './body-read.js';
import type { CacheResult } from './cache.js';
import type { CliResult } from './cli.js';
import type { ColdStartResult } from './cold-start.js';
import { command, quotaNames, requestNames, targets, validationNames } from './config.js';
import { find, ns, pct, range, signed, table, us, verdict, x } from './format.js';
import type { GetManyResult } from './get-many.js';
import type { MemoryResult } from './memory.js';
import type { PagingResult } from './paging.js';
import type { QuotaResult } from './quota.js';
import type { RedisQuotaResult } from './redis-quota.js';
import { cacheSection } from './report-cache.js';
import { cliRows, cliSection } from './report-cli.js';
import { memoryFigures } from './report-memory.js';
import { sections } from './report-more.js';
import { redisSection } from './report-redis.js';
import type { TelemetryResult } from './report-telemetry.js';
import { telemetrySection } from './report-telemetry.js';
import type { Phase, RequestResult } from './request.js';
import type { CostResult } from './request-costs.js';
import type { Machine } from './run.js';
import type { SizeResult } from './size.js';
import type { ValidationResult } from './validation.js';

export interface Results {
  machine: Machine;
  request: RequestResult;
  costs: CostResult;
  quota: QuotaResult;
  validation: ValidationResult;
  bodyRead: BodyReadResult;
  memory: MemoryResult[];
  size: SizeResult;
  coldStart: ColdStartResult;
  paging: PagingResult;
  getMany: GetManyResult;
  /** Section 9; absent from results saved before it existed. */
  cli?: CliResult;
  /** Absent from results written before the cache existed (`--from-last`). */
  cache?: CacheResult;
  /** Section 11; absent from results saved before it existed. */
  redisQuota?: RedisQuotaResult | { skipped: string };
  /** Section 12; absent from results saved before it existed. */
  telemetry?: TelemetryResult;
}

const phaseName = (p: Phase) => (p.latencyMs === 0 ? 'loopback' : `${p.latencyMs} ms latency`);

export function markdown(results: Results): string {
  const { machine, request, costs, quota, validation } = results;
  const [loop, slow] = request.phases as [Phase, Phase];
  const ratio = (p: Phase, of: string, to: string) =>
    find(p.ratios, (r) => r.of === of && r.to === to, `${of} ÷ ${to} at ${phaseName(p)}`);
  const wall = (p: Phase, name: string) => find(p.contenders, (c) => c.name === name, name).wall.median;
  const overKy = [loop, slow].map((p) => ratio(p, requestNames.sdk, requestNames.ky));
  const overOpenapi = [loop, slow].map((p) => ratio(p, requestNames.sdk, requestNames.openapi));
  const overFetch = [loop, slow].map((p) => ratio(p, requestNames.sdk, requestNames.fetch));
  const queuedOverKy = ratio(loop, requestNames.sdkQueued, requestNames.ky);
  const queuedOverSdk = ratio(loop, requestNames.sdkQueued, requestNames.sdk);

  const unset = find(quota.added, (a) => a.name === quotaNames.unset, 'the unset quota');
  const queued = find(quota.added, (a) => a.name === quotaNames.queued, 'the queued quota');
  const loopSdkNs = wall(loop, requestNames.sdk) * 1000;
  // The verdict takes the upper quartile of the added time, not its median: a cost below the
  // resolution of the measurement shows as noise around zero, and the upper quartile bounds it.
  const quotaShare = Math.max(0, unset.wall.p75) / loopSdkNs;

  const fast = find(validation.ratios, (r) => r.of === validationNames.fast, 'the fast path');
  const runtime = find(validation.ratios, (r) => r.of === validationNames.runtime, 'zod’s runtime');
  const more = sections(results);
  const cached = cacheSection(results.cache);
  const redis = redisSection(results.redisQuota);
  const memory = memoryFigures(results.memory);
  const rows: string[][] = [
    ...[loop, slow].map((p, i) => [
      '1',
      `one request, ${phaseName(p)}: scholarly-metrics ÷ ky by hand`,
      `${x(overKy[i]!.wall.median)} (CPU ${x(overKy[i]!.cpu.median)})`,
      `≤ ${x(targets.overKy)}`,
      verdict(overKy[i]!.wall.median <= targets.overKy),
    ]),
    ...[loop, slow].map((p, i) => [
      '1',
      `one request, ${phaseName(p)}: scholarly-metrics ÷ openapi-fetch`,
      `${x(overOpenapi[i]!.wall.median)} (CPU ${x(overOpenapi[i]!.cpu.median)})`,
      `≤ ${x(targets.overOpenapi)}`,
      verdict(overOpenapi[i]!.wall.median <= targets.overOpenapi),
    ]),
    [
      '1',
      'one request: scholarly-metrics ÷ fetch + JSON.parse, loopback / 5 ms',
      `${x(overFetch[0]!.wall.median)} / ${x(overFetch[1]!.wall.median)}`,
      'none',
      '',
    ],
    [
      '2',
      'no limit set: what `Quota.run` adds to a call (upper quartile), as a share of a loopback request',
      `${ns(Math.max(0, unset.wall.p75))} of ${us(loopSdkNs / 1000)}: ${pct(quotaShare, 3)}`,
      `≤ ${pct(targets.quotaShare, 0)}`,
      verdict(quotaShare <= targets.quotaShare),
    ],
    [
      '3',
      'a 1,000-item page: `JSON.parse` + the shape’s `safeParse` ÷ `JSON.parse` alone',
      `${x(fast.wall.median)} (zod’s runtime alone: ${x(runtime.wall.median)})`,
      `≤ ${x(targets.validation, 1)}`,
      verdict(fast.wall.median <= targets.validation),
    ],
    [
      '3b',
      `the bounded body read ÷ \`response.text()\` (0.2): ${results.bodyRead.bodies.map((b) => b.body).join(' / ')}`,
      results.bodyRead.bodies.map((b) => x(b.ratio.wall.median)).join(' / '),
      `≤ ${x(targets.bodyRead)}`,
      verdict(results.bodyRead.bodies.every((b) => b.ratio.wall.median <= targets.bodyRead)),
    ],
    ...memory.rows,
    ...more.rows,
    ...cliRows(results.cli),
    ...cached.rows,
    ...redis.rows,
  ];

  return `# Benchmarks

Written by \`${command}\` (bench/run.ts) from its last run: do not edit by hand, run it again. Every
figure is a median; the contenders of a comparison run in the same process, round-robin in small
batches, the first of each round rotating, so that a noisy neighbour slows them all alike, and every
ratio is taken round by round (paired) before its median. All HTTP goes over real loopback sockets
to 127.0.0.1, to a server in a process of its own: the mock API (\`scholarly-metrics/testing\`) or,
for the million-item walk, a server that makes pages up. What is measured is the build in dist/,
copied aside for the run.

## Results

${table(['#', 'what', 'figure', 'target', ''], rows)}

## Machine and command

- Command: \`${command}\` (\`tsx bench/run.ts\`; it runs \`npm run build\` first when dist/ is older than src/), ${machine.minutes.toFixed(1)} minutes
- Node ${machine.node} (V8 ${machine.v8}), ${machine.os}
- CPU: ${machine.cpu}, ${machine.cores} cores; ${machine.memoryGB.toFixed(0)} GB of memory
- Load average (1, 5, 15 min) before: ${machine.loadBefore.map((n) => n.toFixed(2)).join(', ')}; after: ${machine.loadAfter.map((n) => n.toFixed(2)).join(', ')}
- ${machine.date}, commit ${machine.commit}

The machine is shared: absolute times move from run to run and with the load; the ratios, paired
within a run, move much less. Spreads are the 25th to 75th percentile of the rounds.

## 1. Per request

\`GET /journals/{id}\` (a journal profile, about 250 bytes), one request at a time, ids 1–400 in turn.
Every contender sends the headers the SDK sends (${loop.headers.map((h) => `\`${h}\``).join(', ')}, read off a request the
SDK made) and gets the same answers (checked before timing). *ky by hand* is one \`ky.create({ retry: 0,
timeout: false, throwHttpErrors: false, headers })\`, full URLs, \`(await api.get(url)).text()\` and
\`JSON.parse\`: the SDK's own ky settings, without anything the SDK adds. *wall*: time per request; *CPU*:
this process's CPU time per request (the client's work alone: the server has its own process).
${[loop, slow].map((p) => phaseSection(p)).join('\n')}
### 1b. Where the SDK's time goes, beyond ky by hand

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

${ladderText(results, overKy[0]!.wall.median, wall(loop, requestNames.ky))}

## 2. The quota when no limit is set

A client without \`maxConcurrency\` or \`maxRequestsPerMinute\` holds a \`Quota\` (src/core/quota.ts) whose
\`run(send)\` is one branch before \`send()\`. Measured two ways:

- **From outside, per request** (section 1, loopback): the SDK with no limit ÷ ky by hand is
  ${x(overKy[0]!.wall.median)}; the SDK with \`maxConcurrency: 1_000_000\` (a queue present, never full) ÷ ky by hand is
  ${x(queuedOverKy.wall.median)}, and ÷ the SDK with no limit ${x(queuedOverSdk.wall.median)} (CPU ${x(queuedOverSdk.cpu.median)}). That is what the branch spares a
  client that sets no limit; it cannot show the branch itself, which is far below a request's noise.
- **The branch itself** (bench/quota.ts): \`await quota.run(fn)\` against \`await fn()\` for an async
  \`fn\` that does nothing, ${quota.rounds} rounds of ${quota.batch.toLocaleString('en-US')} calls, src/core/quota.ts through tsx.

${table(
  ['call', 'time per call (p25 to p75)', 'added to fn() (p25 to p75)'],
  quota.contenders.map((c) => {
    const added = quota.added.find((a) => a.name === c.name);
    return [c.name, range(c.wall, ns), added ? range(added.wall, (n) => signed(n, ns)) : ''];
  }),
)}

Target (no limit set, the limiter costs ≤ ${pct(targets.quotaShare, 0)} per request): ${verdict(quotaShare <= targets.quotaShare)}. The branch adds
${signed(unset.wall.median, ns)} per call at the median and at most ${ns(Math.max(0, unset.wall.p75))} in three rounds out of four: against a loopback
request of the SDK (${us(loopSdkNs / 1000)}) that is ${pct(quotaShare, 4)}. A queue that is present but never full costs
${ns(queued.wall.median)} per call here (the limiter's bookkeeping, and the promise it hands back); at the request level that shows as the
${x(queuedOverSdk.wall.median)} above.

${more.text}${cliSection(results.cli)}${cached.text}${redis.text}${telemetrySection(results.telemetry)}`;
}

function phaseSection(p: Phase): string {
  return `
### ${p.latencyMs === 0 ? 'On loopback' : `At ${p.latencyMs} ms of latency`}

${p.latencyMs === 0 ? 'No delay: the client’s own costs weigh the most.' : `The mock holds every answer ${p.latencyMs} ms (\`faults.latencyMs\`, the same fixed delay for every request of every contender) before it answers.`}
${p.rounds} rounds of ${p.batch} requests per contender. The server's keep-alive hint was \`${p.keepAlive ?? 'none'}\`${
    p.keepAlive && /timeout=([0-2])\b/.test(p.keepAlive)
      ? ' — **2 s or less: Node’s fetch opens a new connection for every request, and connection setup dominates these figures**'
      : ': connections are reused'
  }.

${table(
  ['contender', 'wall per request (p25 to p75)', 'CPU per request'],
  p.contenders.map((c) => [c.name, range(c.wall, us), us(c.cpu.median)]),
)}

${table(
  ['ratio (paired per round)', 'wall (p25 to p75)', 'CPU'],
  p.ratios.map((r) => [`${r.of} ÷ ${r.to}`, range(r.wall, (n) => x(n)), x(r.cpu.median)]),
)}
`;
}

/** What limits the ratio over ky by hand, and what would bring it to the hoped-for 1.05×. */
function ladderText(results: Results, overKy: number, kyWall: number): string {
  const { costs } = results;
  const [first, ...added] = costs.rungs;
  const sdk = costs.rungs[costs.rungs.length - 1]!;
  const extraWall = sdk.wall.median - first!.wall.median;
  const budget = kyWall * (targets.overKyHoped - 1);
  const biggest = [...added].sort((a, b) => b.addedCpu!.median - a.addedCpu!.median);
  const alt = costs.alternative;
  /** What rung `n` adds, in µs of wall. */
  const cost = (n: number) => costs.rungs[n]?.addedWall?.median ?? Number.NaN;
  const now = Math.max(0, (overKy - 1) * kyWall);
  const removable = Math.max(0, cost(3)) + Math.max(0, cost(6)) + Math.max(0, cost(5));
  const projected = 1 + Math.max(0, now - removable) / kyWall;
  const saved = alt.savedWall.median;
  const altVerdict =
    saved > 0
      ? `${us(saved)} of wall less than the rung with a signal and a Deadline: worth trying, though a caller's own signal would still go through \`AbortSignal.any\``
      : `${us(-saved)} of wall more than the rung with a signal and a Deadline (ky's timeout brings timers and races of its own): no help`;
  const kyOverFetch = find(
    results.request.phases[0]!.ratios,
    (r) => r.of === requestNames.ky && r.to === requestNames.fetch,
    'ky ÷ fetch',
  ).wall.median;
  const conclusion =
    projected > targets.overKyHoped
      ? `So ${x(targets.overKyHoped)} on loopback needs more than the SDK's own bookkeeping: a cheaper way for ky to carry a per-attempt signal and timer (an upstream change), or a request path without ky, whose own per-call work is already ${x(kyOverFetch)} a bare \`fetch\` here.`
      : `So ${x(targets.overKyHoped)} looks within reach only if nearly all of that bookkeeping goes; the signal and the \`Deadline\` would then be what is left, and ky's own per-call work is already ${x(kyOverFetch)} a bare \`fetch\` here.`;
  return `Read with care: at this load each added figure's quartiles span tens of µs, so single rungs are
indications, and their sum (${us(extraWall)} of wall from ky by hand to the SDK in this ladder) is the firm part.
Largest first by added CPU: ${biggest.map((r) => `${r.name.replace(/^\+ /, '')} (${signed(r.addedCpu!.median, us)})`).join('; ')}.

**What limits it.** ky by hand is already ${x(kyOverFetch)} a bare \`fetch\` on loopback: ky 2.1 does per call
work no option skips (its options merged with the instance's into two \`Headers\`, its own
\`AbortController\`, a \`Request\` that \`fetch\` wraps again). Over that, the SDK does for every request: a
signal per attempt for \`fetch\` to follow, handed past ky as an option ky forwards (given to ky as
\`signal\`, ky would join it to its own with \`AbortSignal.any\` on every call); the attempt's \`Deadline\` (a controller and a timer, so that the
timeout covers the body too); p-retry, which copies and checks its options and reads the clock on every
call, even when the first attempt succeeds; the check of the body; and its own bookkeeping (route,
option checks, the quota's branch, the request id, the \`Answer\`, the lazy \`APIPromise\`).

**What would reach ${x(targets.overKyHoped)}** (src/ is not the benchmark's to change, so these are estimates from the
ladder, not results): ${x(targets.overKyHoped)} of ky by hand leaves about ${us(budget)} per loopback request for everything the SDK
adds; it adds ${us(now)} now (section 1). What could go without changing what the SDK does:
- p-retry's setup on the success path (${signed(cost(3), us)}): run the first attempt directly and hand over to
  p-retry only when it fails with a retryable error;
- the lazy \`APIPromise\` (${signed(cost(6), us)} with the id check): a \`Promise\` subclass that defers its start by a
  microtask and adds two \`then\` hops;
- the Transport's per-call objects (${signed(cost(5), us)} for all of its bookkeeping, of which only a part can go).

Together at most ${us(removable)}, which would leave about ${x(projected)} on loopback. The rest is the timeout and
cancellation: a signal per attempt for \`fetch\` to follow (${signed(cost(1), us)}), and the
\`Deadline\` (${signed(cost(2), us)}). Tried beside the ladder as the other way to time an
attempt out: ${alt.name}, ${us(alt.wall.median)} per request (CPU ${us(alt.cpu.median)}), ${altVerdict}. ${conclusion} With any latency the question
fades: at 5 ms the SDK is ${x(results.request.phases[1] ? find(results.request.phases[1].ratios, (r) => r.of === requestNames.sdk && r.to === requestNames.ky, 'at latency').wall.median : Number.NaN)} ky by hand (section 1).
`;
}
