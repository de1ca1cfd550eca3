/**
 * The partitions of a Redis quota let go with their last client, run by partitions.test.ts in a child
 * process with --expose-gc: a quota over a Redis that is a plain object (node-redis's methods) is given
 * 2,000 clients of as many keys, then dropped; one client is kept, and one partition owes Redis a pause
 * whose send failed. After collections, it prints one JSON line: the partitions `stats()` asks Redis
 * about, and the holds `close()` sent.
 */
import { RedisQuota } from '../../src/redis/redis-quota.ts';
import { fakeRedis } from '../helpers/fake-redis.ts';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}

const redis = fakeRedis();
const quota = new RedisQuota({ redis: redis.client, maxRequestsPerMinute: 1_000_000 });
const identity = (key) => ({ baseUrl: 'https://api.example.test/api/v1', apiKey: `sk_tenant_${key}` });

/** Resolves once `reached()` holds, polled: a loaded machine makes it slower, never wrong. */
async function until(reached, what) {
  for (const started = performance.now(); !reached(); ) {
    if (performance.now() - started > 20_000) throw new Error(`not reached within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (let n = 0; n < 2_000; n++) await quota.forClient(identity(n)).run(async () => n);
const kept = quota.forClient(identity('kept'));
// The ends of those calls reach Redis (alone, a moment after each) before it goes away.
await until(() => redis.ends().flat().length === 2_000, 'the 2,000 ends taken');
redis.up = false;
quota.forClient(identity('owing')).pause(60_000);
await until(() => redis.refused === 1, 'the pause refused');
redis.up = true;

for (let turn = 0; turn < 10; turn++) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
}

// The stats script reads six counts, one script per partition this process still holds.
const before = redis.taken.length;
redis.reply = () => [0, 0, 0, 0, 0, 0];
await quota.stats();
const statsAsked = redis.taken.length - before;
redis.reply = () => [0, 0];
await quota.close();
const holds = redis.holds().map(([hold]) => hold);
// `kept` is read after the collections, so that it is alive through them.
console.log(JSON.stringify({ statsAsked, holds, kept: typeof kept.run }));
