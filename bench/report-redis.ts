/** BENCHMARKS.md, section 11: the quota shared through Redis (bench/redis-quota.ts). */
import { ms, range, signed, us, verdict, x } from './format.js';
import type { RedisQuotaResult } from './redis-quota.js';
import { redisQuotaConfig as config } from './redis-quota-config.js';

export const redisTargets = { addedUs: 150, achieved: 0.95 };

export function redisSection(result: RedisQuotaResult | { skipped: string } | undefined): {
  rows: string[][];
  text: string;
} {
  if (result === undefined || 'skipped' in result) {
    const why = result === undefined ? 'not run' : result.skipped;
    return { rows: [['11', 'the quota shared through Redis', `not measured: ${why}`, '', '']], text: '' };
  }
  const r = result as RedisQuotaResult;
  const addedMet = r.added.median <= redisTargets.addedUs;
  const achievedMet = r.achievedOverLimit >= redisTargets.achieved && r.tooMany === 0 && r.failed === 0;
  const rows = [
    [
      '11',
      'one request on loopback, Redis quota with free places − no quota',
      `${signed(r.added.median, us)} (${x(r.ratio.median)}); ${r.commandsFree.toFixed(2)} round trips per request`,
      `≤ +${redisTargets.addedUs} µs, 1 round trip`,
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
  const text = `
## 11. One quota across processes (Redis)

bench/redis-quota.ts: src/redis through tsx, node-redis, a redis-server of its own on 127.0.0.1, the mock
server over real HTTP. \`npx tsx bench/redis-quota.ts\` runs this part alone.

- **Free places** (limits far above what one loop can use): \`subjects.list()\` one at a time, a client with the
  Redis quota against one with none, ${r.rounds} rounds of ${r.batch}, interleaved. No quota ${range(r.noQuota, us)},
  Redis quota ${range(r.redisQuota, us)}; paired round by round, the quota adds ${range(r.added, us)} per request.
  Target ≤ +${redisTargets.addedUs} µs: ${verdict(addedMet)}.
- **Round trips to Redis** (EVALSHA and EVAL in INFO commandstats; the commands a script runs inside Redis cost
  none): with free places ${r.commandsFree.toFixed(2)} per request with \`maxConcurrency\`, ${r.commandsFreeNoLeases.toFixed(2)} without: the
  script that starts a request, and the one that ends it (its lease given back, its start counted from the
  answer), sent at once when no other request of the process is under way (one after another, as here) and
  never waited for: pipelined on the same connection, it delays the next start by its run inside Redis alone.
  With other requests of the process under way, the end rides on their next start instead. While requests
  wait (the processes below): ${r.commandsWaiting.toFixed(1)} per request.
- **${r.processes} processes**, each its own node-redis client and quota over one key, offering ${config.demand}× the
  mock's window limit (${config.limit} requests per ${config.windowMs} ms, the quota set to the same) for ${ms(config.offeredMs)}:
  ${r.requests} requests, ${r.tooMany} answered 429, ${r.failed} failed. Achieved rate ÷ limit ${x(r.achievedOverLimit)} (the
  whole windows ${r.requests} requests need at the limit, over the time from the first arrival to the last).
  Target ≥ ${x(redisTargets.achieved)} with 0 429s: ${verdict(achievedMet)}. Longest wait per process:
  ${r.longestWaitMs.map((n) => ms(n)).join(', ')}.
`;
  return { rows, text };
}
