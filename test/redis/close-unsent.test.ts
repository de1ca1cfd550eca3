// quota.close() and what failed to reach Redis before it: a pause, a block or the ends of calls whose
// send alone failed go again with close(), which resolves only once Redis has them and rejects with
// QuotaUnavailableError when it still fails, as it does for a send under way. The Redis here is a plain
// object with node-redis's methods, up or away as the test says; timers and the monotonic clock are fake,
// so every hold's length is exact.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuotaIdentity } from '../../src/core/quota-types.js';
import { QuotaUnavailableError } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { fakeRedis, goneText } from '../helpers/fake-redis.js';
import { TEST_KEY } from '../support.js';

const identity: QuotaIdentity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

/** A ticket as the quota makes them (`pid.random.n`), told `@ms` ago: how an end goes alone. */
const endOf = (n: number, ms: number) => new RegExp(`^[0-9a-z]+\\.[0-9a-z]+\\.${n}@${ms}$`);

/** A quota whose `hold` of `ms` was sent while Redis was away, 100 ms ago; Redis is still away. */
async function failedHold(hold: 'block' | 'pause', ms: number) {
  const redis = fakeRedis();
  const quota = new RedisQuota({ redis: redis.client, maxRequestsPerMinute: 10 });
  redis.up = false;
  quota.forClient(identity)[hold](ms);
  await vi.advanceTimersByTimeAsync(100);
  return { redis, quota };
}

/**
 * A quota whose one call ended while Redis was away: no acquire came to carry the end, so it went
 * alone after the idle, and failed. Redis is still away.
 */
async function failedEnd() {
  const redis = fakeRedis();
  const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
  await quota.forClient(identity).run(async () => 'sent');
  redis.up = false;
  await vi.advanceTimersByTimeAsync(5);
  return { redis, quota };
}

describe('quota.close() after a send to Redis failed', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['block', 3_600_000],
    ['pause', 30_000],
  ] as const)(
    'a %s whose send failed goes again, for what is left of it; close() resolves once Redis has it',
    async (hold, ms) => {
      const { redis, quota } = await failedHold(hold, ms);
      expect(redis.refused).toBe(1);
      redis.up = true;
      await quota.close();
      expect(redis.holds()).toEqual([[hold, String(ms - 100)]]);
    },
  );

  it.each([
    ['block', 3_600_000],
    ['pause', 30_000],
  ] as const)(
    'a %s whose send failed, with Redis still away: close() rejects, and sends it once Redis is back',
    async (hold, ms) => {
      const { redis, quota } = await failedHold(hold, ms);
      const error = await quota.close().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaUnavailableError);
      expect((error as Error).message).toBe(`Redis failed (Error: ${goneText}); the quota was closed`);
      expect(redis.refused).toBe(2);
      // Still remembered: a later close() delivers it.
      await vi.advanceTimersByTimeAsync(100);
      redis.up = true;
      await quota.close();
      expect(redis.holds()).toEqual([[hold, String(ms - 200)]]);
    },
  );

  it('a failed hold already over is not sent: close() resolves with Redis away', async () => {
    const redis = fakeRedis();
    const quota = new RedisQuota({ redis: redis.client });
    redis.up = false;
    quota.forClient(identity).pause(50);
    await vi.advanceTimersByTimeAsync(100);
    await quota.close();
    expect(redis.refused).toBe(1);
  });

  it('a failed block that a later one reaching Redis outlasts is not sent again', async () => {
    const redis = fakeRedis();
    const quota = new RedisQuota({ redis: redis.client });
    const part = quota.forClient(identity);
    redis.up = false;
    part.block(60_000);
    await vi.advanceTimersByTimeAsync(100);
    redis.up = true;
    part.block(120_000);
    await vi.advanceTimersByTimeAsync(100);
    await quota.close();
    expect(redis.holds()).toEqual([['block', '120000']]);
  });

  it('the end of a call whose send failed goes again; close() resolves once Redis has it', async () => {
    const { redis, quota } = await failedEnd();
    expect(redis.refused).toBe(1);
    expect(redis.ends()).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    redis.up = true;
    await quota.close();
    const ends = redis.ends();
    expect(ends).toHaveLength(1);
    expect(ends[0]).toHaveLength(1);
    // Told as of this send: its answer came 105 ms before, not the 5 ms the failed send said.
    expect(ends[0]?.[0]).toMatch(endOf(1, 105));
  });

  it('the end of a call whose send failed, with Redis still away: close() rejects', async () => {
    const { redis, quota } = await failedEnd();
    const error = await quota.close().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect((error as Error).message).toBe(
      `Redis failed (Error: ${goneText}); the ends of the last calls did not reach it: a place Redis gave them stays held until its lease ends`,
    );
    expect(redis.refused).toBe(2);
  });

  it('a call refused while Redis was away leaves the line with close(), once Redis is back', async () => {
    const redis = fakeRedis();
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    redis.up = false;
    const refused = await quota
      .forClient(identity)
      .run(async () => 'sent')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QuotaUnavailableError);
    await vi.advanceTimersByTimeAsync(0);
    // Its acquire and then its end (leaving the line it may have been put in unseen) failed.
    expect(redis.refused).toBe(2);
    redis.up = true;
    await quota.close();
    expect(redis.ends()).toHaveLength(1);
    expect(redis.ends()[0]?.[0]).toMatch(/^~[0-9a-z]+\.[0-9a-z]+\.1$/);
  });
});
