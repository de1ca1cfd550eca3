// The shared quota's pause and block against a real redis-server, over node-redis and over ioredis:
// a daily-limit 429 blocks every sharing quota, a retried 429 pauses them.
import { describe, expect, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { redisClients } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { OTHER_TEST_KEY, testClient } from '../support.js';
import { identity, until, useQuotaPair } from './quota-pair.js';

const skip = skipWithoutRedis('test/redis/redis-quota-pause.test.ts');

describe.skipIf(skip).each(redisClients)('the Redis quota over $name', { timeout: 60_000 }, (kind) => {
  const { pair, quota, freshPrefix } = useQuotaPair(kind);

  it('blocks every sharing quota after a daily-limit 429, without sending', async () => {
    const prefix = freshPrefix();
    const a = quota({ prefix }).forClient(identity);
    const b = quota({ prefix }, undefined, pair.other).forClient(identity);
    a.block(90_000);
    await until(async () => (await pair.redis.keys(`${prefix}:*:b`)).length === 1);
    let sent = 0;
    const error = await b.run(async () => sent++).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(60);
    expect((error as RateLimitError).retryAfter).toBeLessThanOrEqual(90);
    expect(sent).toBe(0);
    // Another key is not blocked.
    const otherKey = quota({ prefix }).forClient({ ...identity, apiKey: OTHER_TEST_KEY });
    await expect(otherKey.run(async () => 1)).resolves.toBe(1);
  });

  it('shares no pause asked within a block it knows of: the block’s own refusal, retried, is no 429', async () => {
    const prefix = freshPrefix();
    const a = quota({ prefix }).forClient(identity);
    const quotaB = quota({ prefix }, undefined, pair.other);
    const b = quotaB.forClient(identity);
    a.block(5_000);
    await until(async () => (await pair.redis.keys(`${prefix}:*:b`)).length === 1);
    const error = (await b.run(async () => 0).catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    // What the transport asks when it retries that refusal: a pause as long as its Retry-After.
    b.pause((error.retryAfter ?? 0) * 1_000);
    await quotaB.close();
    expect(await pair.redis.keys(`${prefix}:*:p`)).toEqual([]);
    expect((await quotaB.stats()).pause).toBeUndefined();
  });

  it('pauses every sharing quota after a retried 429 until the pause has passed', async () => {
    const prefix = freshPrefix();
    const a = quota({ prefix }).forClient(identity);
    const b = quota({ prefix }, undefined, pair.other).forClient(identity);
    a.pause(400);
    await until(async () => (await pair.redis.keys(`${prefix}:*:p`)).length === 1);
    // b's request starts only once Redis itself has let the pause expire.
    const pauseLeft = await b.run(async () => {
      const [key] = await pair.redis.keys(`${prefix}:*:p`);
      return key === undefined ? -2 : Number(await pair.redis.command(['PTTL', key]));
    });
    expect(pauseLeft).toBeLessThanOrEqual(0);
  });

  it('a start reserved ahead by even pacing waits out a pause drawn while it waited', async () => {
    const prefix = freshPrefix();
    // 30 a minute, evenly: a start every 2 s, which the pause below comes well within.
    const paced = quota({ prefix, maxRequestsPerMinute: 30, pacing: 'even' }).forClient(identity);
    await paced.run(async () => 'first');
    let pausedAt = 0;
    let sentAt = 0;
    const second = paced.run(async () => {
      sentAt = performance.now();
    });
    // The first call's answer was a 429 with a wait: it pauses every call while the second waits its turn.
    await new Promise((resolve) => setTimeout(resolve, 10));
    pausedAt = performance.now();
    paced.pause(2_500);
    await second;
    expect(sentAt - pausedAt).toBeGreaterThanOrEqual(2_490);
  });

  it('a daily-limit 429 met by one client refuses the others without sending', async () => {
    const api = createMockApi({ limits: { perDay: 2 }, now: () => Date.parse('2026-03-01T12:00:00Z') });
    const prefix = freshPrefix();
    const clientOn = (redis: typeof pair.redis) =>
      testClient({ maxRetries: 0, quota: createRedisQuota({ redis: redis.client, prefix }) }, api);
    const [a, b] = [clientOn(pair.redis), clientOn(pair.other)];
    await a.subjects.list();
    await b.subjects.list();
    await expect(a.subjects.list()).rejects.toBeInstanceOf(RateLimitError);
    const sentBefore = api.requests.length;
    await until(async () => (await pair.redis.keys(`${prefix}:*:b`)).length === 1);
    const error = await b.subjects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(60);
    expect(api.requests.length).toBe(sentBefore);
  });
});
