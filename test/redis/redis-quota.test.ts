// The shared quota against a real redis-server, over node-redis and over ioredis: exact windows,
// leases, the line, the shared pause and block, Redis going away and coming back, and what Redis holds.
import { describe, expect, it } from 'vitest';
import type { QuotaIdentity, RequestQuota } from '../../src/core/quota-types.js';
import {
  ConfigurationError,
  MetricClient,
  MetricError,
  QuotaUnavailableError,
  RateLimitError,
} from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { argTemplate, partitionKeys } from '../../src/redis/keys.js';
import { RELEASE_SCRIPT, releaseArgs } from '../../src/redis/lua-scripts.js';
import { type QuotaWindows, RedisQuota, type RedisQuotaOptions } from '../../src/redis/redis-quota.js';
import { createMockApi } from '../../src/testing/index.js';
import { redisClients, useRedisPair } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { gate, OTHER_TEST_KEY, TEST_KEY, testClient } from '../support.js';

const skip = skipWithoutRedis('test/redis/redis-quota.test.ts');
const identity: QuotaIdentity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
  expect(await check()).toBe(true);
}

describe.skipIf(skip).each(redisClients)('the Redis quota over $name', { timeout: 60_000 }, (kind) => {
  const pair = useRedisPair(kind);
  let prefixes = 0;

  /** A quota on a prefix of the test's own, as another process would make it with `client`. */
  function quota(options: Omit<RedisQuotaOptions, 'redis'>, windows?: QuotaWindows, client = pair.redis) {
    return new RedisQuota({ redis: client.client, ...options }, windows);
  }
  const freshPrefix = () => `t${++prefixes}`;

  it('never lets more than the limit start within any window, by Redis’s own start times', async () => {
    const prefix = freshPrefix();
    // The day window keeps every start: its scores are Redis's TIME at each grant.
    const windows = { minuteMs: 300, dayMs: 60_000 };
    const limits = { maxRequestsPerMinute: 3, maxRequestsPerDay: 1_000, prefix };
    const quotaA = quota(limits, windows);
    const quotaB = quota(limits, windows, pair.other);
    const a = quotaA.forClient(identity);
    const b = quotaB.forClient(identity);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).run(async () => i)),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // The ends of the last calls reach Redis: each start then counts from when its answer came back.
    await Promise.all([quotaA.close(), quotaB.close()]);
    const [day] = await pair.redis.keys(`${prefix}:*:d`);
    // Flat (RESP2) or in pairs (RESP3), as the client gives it.
    const scores = (
      (await pair.redis.command(['ZRANGE', day as string, '0', '-1', 'WITHSCORES'])) as unknown[]
    )
      .flat()
      .filter((_, i) => i % 2 === 1)
      .map(Number);
    expect(scores).toHaveLength(12);
    // Exact: the 4th start after any start comes a whole window (in µs) after it, or later.
    for (let i = 3; i < scores.length; i++) {
      expect((scores[i] as number) - (scores[i - 3] as number)).toBeGreaterThanOrEqual(300_000);
    }
  });

  it('counts an end told as ticket@ms from that many ms before Redis’s now', async () => {
    const keys = partitionKeys(freshPrefix(), 'h');
    const [, day] = keys as [string, string];
    const args = argTemplate(releaseArgs, {
      perMinute: 0,
      minuteMs: 0,
      perDay: 100,
      dayMs: 60_000,
      concurrency: 0,
    });
    // In flight: scored by its lease's end, a minute ahead.
    await pair.redis.command(['ZADD', day, String((Date.now() + 60_000) * 1_000), 'a.1']);
    await pair.redis.command(['ZADD', day, String((Date.now() + 60_000) * 1_000), 'a.2']);
    const ends = ['a.1@300', 'a.2'];
    await pair.redis.command([
      'EVAL',
      RELEASE_SCRIPT,
      String(keys.length),
      ...keys,
      ...args.template,
      ...ends,
    ]);
    const [seconds, micros] = ((await pair.redis.command(['TIME'])) as unknown[]).map(Number);
    const now = (seconds as number) * 1_000_000 + (micros as number);
    const score = async (ticket: string) => Number(await pair.redis.command(['ZSCORE', day, ticket]));
    expect(now - (await score('a.1'))).toBeGreaterThanOrEqual(300_000);
    expect(now - (await score('a.1'))).toBeLessThan(400_000);
    expect(now - (await score('a.2'))).toBeGreaterThanOrEqual(0);
    expect(now - (await score('a.2'))).toBeLessThan(100_000);
  });

  it('holds requests in flight to maxConcurrency across quotas, and gives places back', async () => {
    const prefix = freshPrefix();
    const a = quota({ maxConcurrency: 2, prefix }).forClient(identity);
    const b = quota({ maxConcurrency: 2, prefix }, undefined, pair.other).forClient(identity);
    let inFlight = 0;
    let highest = 0;
    const send = async () => {
      highest = Math.max(highest, ++inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).run(send)));
    expect(highest).toBe(2);
    await until(async () => (await pair.redis.keys(`${prefix}:*:l`)).length === 0);
  });

  it('drops a waiting call at once on abort: it holds no place and leaves the line', async () => {
    const prefix = freshPrefix();
    const shared = quota({ maxConcurrency: 1, prefix }).forClient(identity);
    const held = gate();
    const first = shared.run(() => held.promise);
    await until(async () => (await pair.redis.keys(`${prefix}:*:l`)).length === 1);
    const controller = new AbortController();
    let sent = false;
    const waiting = shared.run(
      async () => {
        sent = true;
      },
      { signal: controller.signal, timeout: 5_000 },
    );
    await until(async () => (await pair.redis.keys(`${prefix}:*:q`)).length === 1);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await until(async () => (await pair.redis.keys(`${prefix}:*:q`)).length === 0);
    held.open();
    await first;
    await expect(shared.run(async () => 'next')).resolves.toBe('next');
    expect(sent).toBe(false);
  });

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

  it('keeps a window’s log small under a limit never reached: older starts are trimmed', async () => {
    const prefix = freshPrefix();
    const windows = { minuteMs: 100, dayMs: 60_000 };
    const quotaA = quota({ maxRequestsPerMinute: 1_000_000, prefix }, windows);
    const part = quotaA.forClient(identity);
    const [batches, batch] = [5, 60];
    for (let b = 0; b < batches; b++) {
      for (let i = 0; i < batch; i++) await part.run(async () => i);
      // Past a window: every start of this batch is older than the window when the next begins.
      await new Promise((r) => setTimeout(r, 150));
    }
    await quotaA.close();
    const [minute] = await pair.redis.keys(`${prefix}:*:m`);
    const held = Number(await pair.redis.command(['ZCARD', minute as string]));
    // At most the starts of the last batch and 63 since the last trim: never all 300.
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(batch + 63);
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

  it('MetricClient: quota with its own limits throws; withOptions shares the parent’s quota', async () => {
    const shared = createRedisQuota({ redis: pair.redis.client, maxConcurrency: 1, prefix: freshPrefix() });
    expect(
      () =>
        // @ts-expect-error: a type error too (ClientOptions); a JavaScript caller meets the runtime check
        new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: shared, maxConcurrency: 2 }),
    ).toThrow(MetricError);
    expect(
      () => new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: {} as never }),
    ).toThrow(MetricError);
    const seen: RequestQuota[] = [];
    const spy = {
      forClient: (id: QuotaIdentity) => seen[seen.push(shared.forClient(id)) - 1] as RequestQuota,
    };
    const parent = new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: spy });
    parent.withOptions({ timeout: 1_000 });
    expect(seen).toHaveLength(1);
    parent.withOptions({ apiKey: OTHER_TEST_KEY });
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
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

describe('createRedisQuota refuses bad options with ConfigurationError naming them', () => {
  it.each([
    [{ redis: {} }, 'redis', /node-redis/],
    [{ redis: null }, 'redis', /node-redis/],
    [{ redis: { evalSha() {} }, maxConcurrency: 0 }, 'maxConcurrency', /maxConcurrency/],
    [{ redis: { evalsha() {} }, maxRequestsPerMinute: 1.5 }, 'maxRequestsPerMinute', /maxRequestsPerMinute/],
    [{ redis: { evalsha() {} }, maxRequestsPerDay: '5' }, 'maxRequestsPerDay', /maxRequestsPerDay/],
    [{ redis: { evalsha() {} }, prefix: '' }, 'prefix', /prefix/],
    [{ redis: { evalsha() {} }, prefix: 42 }, 'prefix', /prefix/],
    // A brace would break the cluster hash tag: `app{}` fails every call with CROSSSLOT, `team{a}`
    // puts every partition in one slot.
    [{ redis: { evalsha() {} }, prefix: 'app{}' }, 'prefix', /\{/],
    [{ redis: { evalsha() {} }, prefix: 'team{a}' }, 'prefix', /\{/],
    [{ redis: { evalsha() {} }, prefix: 'x}' }, 'prefix', /\}/],
  ])('%o', (options, option, message) => {
    const error = (() => {
      try {
        createRedisQuota(options as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(MetricError);
    expect((error as ConfigurationError).option).toBe(option);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses options that are not an object', () => {
    expect(() => createRedisQuota(undefined as never)).toThrow(ConfigurationError);
    expect(() => createRedisQuota(null as never)).toThrow(ConfigurationError);
  });
});
