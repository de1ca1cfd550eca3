/** BENCHMARKS.md, section 10: the cache (bench/cache.ts). */
import type { CacheResult } from './cache.js';
import { count, find, range, table, us, verdict, x } from './format.js';

/** The contenders of bench/cache.ts (here, so that the report can name them without running it). */
export const cacheNames = {
  uncached: 'journals.get, no cache, loopback',
  memory: 'journals.get, memory hit',
  redis: 'journals.get, Redis hit (loopback)',
  identityCheck: 'the identity check (journal id against its path)',
  keyCheck: 'the encoded-key check of a kept entry',
} as const;

/** What the cache's figures must meet (issue 16). */
export const cacheTargets = { memoryHit: 0.05, redisHit: 0.5, dayRequests: 0.2, checks: 1.05 } as const;

export function cacheSection(cache: CacheResult | undefined): { rows: string[][]; text: string } {
  if (cache === undefined) return { rows: [], text: '' };
  const { hits, day } = cache;
  const ratio = (name: string) => hits.ratios.find((r) => r.name === name);
  const memory = find(hits.ratios, (r) => r.name === cacheNames.memory, 'the memory hit');
  const redis = ratio(cacheNames.redis);
  const share = day.sentWith / day.sentWithout;
  const rows = [
    [
      '10',
      'a cache hit from memory ÷ the same call sent over loopback',
      x(memory.wall.median, 3),
      `≤ ${x(cacheTargets.memoryHit)}`,
      verdict(memory.wall.median <= cacheTargets.memoryHit),
    ],
    [
      '10',
      'a cache hit from Redis on loopback ÷ the same call sent over loopback',
      redis ? x(redis.wall.median) : `not measured: ${hits.redisSkipped}`,
      `≤ ${x(cacheTargets.redisHit)}`,
      verdict(!!redis && redis.wall.median <= cacheTargets.redisHit),
    ],
    [
      '10',
      `a replayed dashboard day (${count(day.calls)} calls, ${day.webhooks} webhooks): requests with the cache ÷ without; stale scores`,
      `${x(share, 3)}; ${day.stale} stale`,
      `≤ ${x(cacheTargets.dayRequests)}; 0`,
      verdict(share <= cacheTargets.dayRequests && day.stale === 0),
    ],
  ];
  for (const name of [cacheNames.identityCheck, cacheNames.keyCheck]) {
    const checked = cache.checks?.ratios.find((r) => r.name === name);
    rows.push([
      '10',
      `a memory hit with ${name} ÷ the hit without it`,
      checked ? x(checked.wall.median, 3) : 'not measured',
      `≤ ${x(cacheTargets.checks)}`,
      verdict(!!checked && checked.wall.median <= cacheTargets.checks),
    ]);
  }
  const checks = cache.checks;
  const checksText =
    checks === undefined
      ? ''
      : `
What the store checks of issue 21 add to a memory hit: the identity check (every hit runs it) and the
encoded-key check over the entry the hit was kept as (run when an answer is kept, so a hit never pays it), each
timed in a tight loop, round by round with ${checks.batch} hits, ${checks.rounds} rounds, round-robin; the ratio is
1 + the check's cost ÷ the hit's, paired per round.

${table(
  ['contender', 'per call', 'hit with it ÷ hit'],
  checks.contenders.map((c) => {
    const r = checks.ratios.find((ratio) => ratio.name === c.name);
    return [c.name, range(c.wall, us), r ? range(r.wall, (n) => x(n, 3)) : ''];
  }),
)}
`;
  const text = `
## 10. The cache

bench/cache.ts. Hits: \`journals.get(7)\` answered from the memory store (\`cache: true\`) and from Redis
(\`@keyv/redis\` over a redis-server on loopback), against the same call without a cache sent to the mock API
in a process of its own; ${hits.rounds} rounds of ${hits.batch} calls, round-robin, ratios paired per round
(median, with the quartiles). Every hit is validated again as it is read back.

${table(
  ['contender', 'per call', 'contender ÷ no cache'],
  hits.contenders.map((c) => {
    const r = ratio(c.name);
    return [c.name, range(c.wall, us), r ? range(r.wall, (n) => x(n, 3)) : ''];
  }),
)}

A replayed dashboard day: ${count(day.calls)} calls on a simulated clock (8.64 s apart, so that lifetimes run out as
they would over 24 h) with no real-time wait: journals drawn Zipf-like (s = 1.1) for profiles (45 %) and score
histories (20 %), the journal list (10 %), searches over ten queries (10 %), journal papers (5 %), subjects and
countries (10 %); ${day.webhooks} score changes at random moments, each POSTed in-process to a receiver wired with
\`client.cache\`. Requests sent without the cache: ${count(day.sentWithout)}; with it: ${count(day.sentWith)}. Answers
whose score differs from the mock's at the moment of the call: ${day.stale}. The replay with the cache took
${Math.round(day.ms)} ms of wall time.
${checksText}`;
  return { rows, text };
}
