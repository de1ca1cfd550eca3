// quota.close() and the one-script path, against a real redis-server over node-redis and ioredis.
// setTimeout is faked while a test counts, so that an end waits for the next start or close() and
// never for the short idle: what reaches Redis is then what the calls and close() sent, nothing else.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { redisClients, useRedis } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { eventually, gate, OTHER_TEST_KEY, TEST_KEY } from '../support.js';

const skip = skipWithoutRedis('test/redis/close.test.ts');
const identity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

describe.skipIf(skip).each(redisClients)('quota.close() over $name', { timeout: 60_000 }, (kind) => {
  const db = useRedis(kind);
  let prefixes = 0;
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Scripts Redis has run so far (EVALSHA and EVAL). */
  async function scripts(): Promise<number> {
    const info = String(await db.redis.command(['INFO', 'commandstats']));
    return [...info.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce(
      (sum, [, n]) => sum + Number(n),
      0,
    );
  }
  const count = async (key: string) => Number(await db.redis.command(['ZCARD', key]));
  const leasesKey = async (prefix: string) => (await db.redis.keys(`${prefix}:*:l`))[0] ?? `${prefix}:none`;

  it('runs one script per request one after another; close() sends the last end', async () => {
    const prefix = `c${++prefixes}`;
    const quota = new RedisQuota({
      redis: db.redis.client,
      maxConcurrency: 4,
      maxRequestsPerMinute: 1_000,
      prefix,
    });
    const part = quota.forClient(identity);
    await part.run(async () => 0); // the scripts are loaded (EVAL) on first use
    await quota.close();
    const counting = new RedisQuota({
      redis: db.redis.client,
      maxConcurrency: 4,
      maxRequestsPerMinute: 1_000,
      prefix,
    });
    const sequential = counting.forClient(identity);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const before = await scripts();
    for (let i = 0; i < 20; i++) await sequential.run(async () => i);
    expect((await scripts()) - before).toBe(20);
    // The last end has not reached Redis: its lease is still there, until close().
    expect(await count(await leasesKey(prefix))).toBe(1);
    await counting.close();
    expect((await scripts()) - before).toBe(21);
    expect(await count(await leasesKey(prefix))).toBe(0);
  });

  it('counts the start of the last call from its answer once close() resolves', async () => {
    const prefix = `c${++prefixes}`;
    const quota = new RedisQuota({ redis: db.redis.client, maxRequestsPerMinute: 10, prefix });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await quota.forClient(identity).run(async () => 0);
    const [minute] = await db.redis.keys(`${prefix}:*:m`);
    const score = async () =>
      Number(
        await db.redis
          .command(['ZRANGE', minute as string, '0', '0', 'WITHSCORES'])
          .then((r) => (r as unknown[]).flat()[1]),
      );
    const time = async () => {
      const [seconds, micros] = (await db.redis.command(['TIME'])) as [string, string];
      return Number(seconds) * 1e6 + Number(micros);
    };
    // In flight as far as Redis knows: counted until its lease ends, later than now.
    expect(await score()).toBeGreaterThan(await time());
    await quota.close();
    expect(await score()).toBeLessThanOrEqual(await time());
  });

  it('sends a pause still on its way before it resolves', async () => {
    const prefix = `c${++prefixes}`;
    const quota = new RedisQuota({ redis: db.redis.client, prefix });
    quota.forClient(identity).pause(30_000);
    await quota.close();
    expect(await db.redis.keys(`${prefix}:*:p`)).toHaveLength(1);
  });

  // The longest timeout a call takes (setTimeout's limit) too: its lease is longer than a timer can wait.
  it.each([30_000, 2 ** 31 - 1])(
    'waits for the calls in flight (timeout %i), then sends their ends before it resolves',
    async (timeout) => {
      const prefix = `c${++prefixes}`;
      const quota = new RedisQuota({ redis: db.redis.client, maxConcurrency: 2, prefix });
      const held = gate();
      let sent = false;
      const inFlight = quota.forClient(identity).run(
        () => {
          sent = true;
          return held.promise;
        },
        { signal: undefined, timeout },
      );
      await eventually(() => expect(sent).toBe(true));
      let closed = false;
      const closing = quota.close().then(() => {
        closed = true;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(closed).toBe(false);
      held.open();
      await closing;
      await inFlight;
      // Its place is back once close() resolves: the Redis client may be closed right after.
      expect(await count(await leasesKey(prefix))).toBe(0);
    },
  );

  it('waits for a call in flight until its lease ends, and no longer', async () => {
    const prefix = `c${++prefixes}`;
    const quota = new RedisQuota({ redis: db.redis.client, maxConcurrency: 1, leaseMs: 1_000, prefix });
    const sent = gate();
    void quota.forClient(identity).run(() => {
      sent.open();
      return new Promise<never>(() => {});
    });
    await sent.promise;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let closed = false;
    const closing = quota.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(closed).toBe(true);
  });

  it('refuses calls after it, sending nothing', async () => {
    const quota = new RedisQuota({ redis: db.redis.client, maxConcurrency: 1, prefix: `c${++prefixes}` });
    const part = quota.forClient(identity);
    await quota.close();
    let sent = false;
    const error = await part
      .run(async () => {
        sent = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    // A client made after close() (another key) is refused as well.
    const later = quota.forClient({ ...identity, apiKey: OTHER_TEST_KEY });
    await expect(later.run(async () => (sent = true))).rejects.toBeInstanceOf(QuotaUnavailableError);
    expect(sent).toBe(false);
  });

  it('rejects with QuotaUnavailableError when Redis is gone, and settles', async () => {
    const quota = new RedisQuota({ redis: db.redis.client, maxConcurrency: 1, prefix: `c${++prefixes}` });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await quota.forClient(identity).run(async () => 0);
    vi.useRealTimers();
    await db.server.stop();
    try {
      await expect(quota.close()).rejects.toBeInstanceOf(QuotaUnavailableError);
    } finally {
      await db.server.start();
    }
  });
});
