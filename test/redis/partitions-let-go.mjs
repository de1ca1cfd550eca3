/**
 * The partitions of a Redis quota let go with their last client, run by partitions.test.ts in a child
 * process with --expose-gc: a quota over a Redis that is a plain object (node-redis's methods) is given
 * 2,000 clients of as many keys, then dropped; one client is kept, and one partition owes Redis a pause
 * whose send failed. After collections, it prints one JSON line: the partitions `stats()` asks Redis
 * about, and the holds `close()` sent.
 */
import { RedisQuota } from '../../src/redis/redis-quota.ts';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}

let up = true;
/** While stats() runs: each script is its read of one partition, answered with six counts. */
let reading = false;
let statsAsked = 0;
const holds = [];
/** Every script granted (the acquire's `[0, 0]`) while Redis is up; refused while it is away. */
const answer = async (args) => {
  if (!up) throw new Error('Connection is closed.');
  if (reading) {
    statsAsked++;
    return [0, 0, 0, 0, 0, 0];
  }
  if (args[0] === 'pause' || args[0] === 'block') holds.push(args[0]);
  return [0, 0];
};
const redis = {
  evalSha: (_sha, { arguments: args }) => answer(args),
  eval: (_source, { arguments: args }) => answer(args),
};
const quota = new RedisQuota({ redis, maxRequestsPerMinute: 1_000_000 });
const identity = (key) => ({ baseUrl: 'https://api.example.test/api/v1', apiKey: `sk_tenant_${key}` });

for (let n = 0; n < 2_000; n++) await quota.forClient(identity(n)).run(async () => n);
const kept = quota.forClient(identity('kept'));
// The ends of those calls reach Redis (alone, a moment after each) before it goes away.
await new Promise((resolve) => setTimeout(resolve, 50));
up = false;
quota.forClient(identity('owing')).pause(60_000);
await new Promise((resolve) => setTimeout(resolve, 50));
up = true;

for (let turn = 0; turn < 10; turn++) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
}

reading = true;
await quota.stats();
reading = false;
await quota.close();
// `kept` is read after the collections, so that it is alive through them.
console.log(JSON.stringify({ statsAsked, holds, kept: typeof kept.run }));
