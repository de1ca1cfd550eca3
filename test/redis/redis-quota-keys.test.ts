// The shared quota while its redis-server goes away and comes back, and what it leaves in Redis: a TTL
// on every key, never the API key; over node-redis and over ioredis.
import { describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { redisClients } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { TEST_KEY } from '../support.js';
import { identity, until, useQuotaPair } from './quota-pair.js';

const skip = skipWithoutRedis('test/redis/redis-quota-keys.test.ts');

describe.skipIf(skip).each(redisClients)('the Redis quota over $name', { timeout: 60_000 }, (kind) => {
  const { pair, quota, freshPrefix } = useQuotaPair(kind);

  it('rejects with QuotaUnavailableError while Redis is down, sending nothing, then works again', async () => {
    const prefix = freshPrefix();
    const shared = quota({ maxRequestsPerMinute: 100, maxConcurrency: 4, prefix }).forClient(identity);
    await shared.run(async () => 0);
    await pair.server.stop();
    let sent = 0;
    for (const timeout of [300, 300]) {
      const error = await shared
        .run(async () => sent++, { signal: undefined, timeout })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaUnavailableError);
      expect((error as Error).message).toContain('Redis');
      expect((error as Error).message).not.toContain(TEST_KEY);
    }
    expect(sent).toBe(0);
    await pair.server.start();
    let result: unknown;
    for (let i = 0; i < 100 && result !== 'back'; i++) {
      result = await shared
        .run(async () => 'back', { signal: undefined, timeout: 300 })
        .catch((e: unknown) => e);
      if (result !== 'back') expect(result).toBeInstanceOf(QuotaUnavailableError);
    }
    expect(result).toBe('back');
  });

  it('puts a TTL on every key, and never the API key in a name or a value', async () => {
    const prefix = freshPrefix();
    const shared = quota(
      { maxRequestsPerMinute: 2, maxConcurrency: 1, maxRequestsPerDay: 100, prefix },
      {
        minuteMs: 200,
        dayMs: 10_000,
      },
    ).forClient(identity);
    await Promise.all(Array.from({ length: 5 }, () => shared.run(async () => 0)));
    shared.pause(5_000);
    shared.block(100_000);
    await until(async () => (await pair.redis.keys(`${prefix}:*:b`)).length === 1);
    const keys = await pair.redis.keys('*');
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain(TEST_KEY);
      // -1 is a key without a TTL, the failure looked for; -2 is one that expired since the listing.
      const ttl = Number(await pair.redis.command(['PTTL', key]));
      expect(ttl === -2 || ttl > 0, `${key}: PTTL ${ttl}`).toBe(true);
      const type = String(await pair.redis.command(['TYPE', key]));
      const value =
        type === 'zset'
          ? await pair.redis.command(['ZRANGE', key, '0', '-1', 'WITHSCORES'])
          : await pair.redis.command(['GET', key]);
      expect(JSON.stringify(value)).not.toContain(TEST_KEY);
    }
  });
});
