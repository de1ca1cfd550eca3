/** BENCHMARKS.md, section 11: the quota shared through Redis (bench/redis-quota.ts). */
import { ms, range, table, us, verdict, x } from './format.js';
import type { AloneFigures, RedisQuotaResult } from './redis-quota.js';
import { redisQuotaConfig as config } from './redis-quota-config.js';

/** The quota alone ÷ one EVALSHA; what it adds through HTTP ÷ what one EVALSHA adds; the processes' rate. */
export const redisTargets = { aloneOverEvalsha: 2.0, addedOverEvalsha: 1.5, achieved: 0.95 };

/** What each contender of the table promises, beside its cost. */
const guarantees: Record<keyof RedisQuotaResult['alone'], [string, string]> = {
  evalsha: ['one bare `EVALSHA` (`return {0, 0}`), the floor', 'none: it limits nothing'],
  quota: [
    '`createRedisQuota` `run` (free places)',
    'exact sliding windows (minute, day); requests in flight across processes, as leases; a fair line; a 429 pauses, a daily 429 blocks every process',
  ],
  rateLimiterFlexible: [
    'rate-limiter-flexible `RateLimiterRedis.consume`',
    'a fixed window (up to 2× the limit across a boundary); no concurrency across processes, no leases, no line, no shared 429 pause',
  ],
  bottleneck: [
    'Bottleneck, Redis clustering (`schedule`)',
    'a reservoir refreshed on a timer, not a sliding window; `maxConcurrent` across processes, with job expiration as leases; no shared 429 pause or daily block',
  ],
};

export function redisSection(result: RedisQuotaResult | { skipped: string } | undefined): {
  rows: string[][];
  text: string;
} {
  if (result === undefined || 'skipped' in result) {
    const why = result === undefined ? 'not run' : result.skipped;
    return { rows: [['11', 'the quota shared through Redis', `not measured: ${why}`, '', '']], text: '' };
  }
  const r = result as RedisQuotaResult;
  const aloneMet = r.alone.quota.overEvalsha.median <= redisTargets.aloneOverEvalsha;
  const addedMet = r.addedOverEvalsha <= redisTargets.addedOverEvalsha;
  const achievedMet = r.achievedOverLimit >= redisTargets.achieved && r.tooMany === 0 && r.failed === 0;
  const rows = [
    [
      '11',
      'the Redis quota alone (free places) ÷ one bare EVALSHA round trip, paired',
      `${x(r.alone.quota.overEvalsha.median)}; ${r.alone.quota.roundTrips.toFixed(2)} scripts per call`,
      `≤ ${x(redisTargets.aloneOverEvalsha)}`,
      verdict(aloneMet),
    ],
    [
      '11',
      'one request on loopback: what the quota adds ÷ what one bare EVALSHA before it adds',
      `${x(r.addedOverEvalsha)} (${us(r.added.median)} ÷ ${us(r.addedByEvalsha.median)})`,
      `≤ ${x(redisTargets.addedOverEvalsha)}`,
      verdict(addedMet),
    ],
    [
      '11',
      `${r.processes} processes, demand ${config.demand}× the mock's limit of ${config.limit} per ${config.windowMs} ms: achieved rate ÷ limit, 429s`,
      `${x(r.achievedOverLimit)}, ${r.tooMany} 429s, ${r.failed} failed`,
      `≥ ${x(redisTargets.achieved)}, 0 429s`,
      verdict(achievedMet),
    ],
  ];
  const line = (name: keyof RedisQuotaResult['alone'], f: AloneFigures) => [
    guarantees[name][0],
    range(f.perCall, us),
    x(f.overEvalsha.median),
    f.roundTrips.toFixed(2),
    `${f.redisUs.toFixed(1)} µs`,
    guarantees[name][1],
  ];
  const alone = table(
    ['contender', 'per call', '÷ EVALSHA', 'scripts per call', 'Redis’s time per call', 'what it guarantees'],
    (Object.keys(r.alone) as (keyof RedisQuotaResult['alone'])[]).map((name) => line(name, r.alone[name])),
  );
  const text = `
## 11. One quota across processes (Redis)

bench/redis-quota.ts: src/redis through tsx, node-redis (ioredis for the references that need it), one
redis-server of its own on 127.0.0.1, the mock server over real HTTP. \`npx tsx bench/redis-quota.ts\` runs
this part alone and prints its figures as JSON.

- **Alone**, one call at a time, ${r.rounds} rounds of ${r.batch}, the contenders interleaved round by round on one
  redis-server. Redis's time per call is what INFO commandstats counts for the scripts (the commands they run
  inside Redis included), over 500 calls each. Target for the quota ≤ ${x(redisTargets.aloneOverEvalsha)} one EVALSHA: ${verdict(aloneMet)}.

${alone}

- **Through HTTP**, \`subjects.list()\` one at a time against the mock: no quota ${range(r.noQuota, us)}, the Redis
  quota ${range(r.redisQuota, us)}, one bare EVALSHA before each request ${range(r.bareEvalsha, us)}. Paired round by
  round, the quota adds ${range(r.added, us)} and one EVALSHA adds ${range(r.addedByEvalsha, us)}: ${x(r.addedOverEvalsha)}.
  Target ≤ ${x(redisTargets.addedOverEvalsha)}: ${verdict(addedMet)}.
- **Scripts per request** with free places: ${r.commandsFree.toFixed(2)} with \`maxConcurrency\`, ${r.commandsFreeNoLeases.toFixed(2)} without.
  The end of a request (its lease given back, its start counted from its answer) rides on the next start of
  the process; the last goes after a short idle or with \`quota.close()\`. While requests wait (the processes
  below): ${r.commandsWaiting.toFixed(1)} per request.
- **${r.processes} processes**, each its own node-redis client and quota over one key, offering ${config.demand}× the
  mock's window limit (${config.limit} requests per ${config.windowMs} ms, the quota set to the same) for ${ms(config.offeredMs)}:
  ${r.requests} requests, ${r.tooMany} answered 429, ${r.failed} failed. Achieved rate ÷ limit ${x(r.achievedOverLimit)} (the
  whole windows ${r.requests} requests need at the limit, over the time from the first arrival to the last).
  Target ≥ ${x(redisTargets.achieved)} with 0 429s: ${verdict(achievedMet)}. Longest wait per process:
  ${r.longestWaitMs.map((n) => ms(n)).join(', ')}.
`;
  return { rows, text };
}
