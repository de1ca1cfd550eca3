// The shared quota against a real redis-server, over node-redis and over ioredis: exact windows,
// leases, the line. The shared pause and block: redis-quota-pause.test.ts; Redis going away and coming
// back, and what Redis holds: redis-quota-keys.test.ts; its options: redis-quota-options.test.ts.
import { describe, expect, it } from 'vitest';
import { argTemplate, partitionKeys } from '../../src/redis/keys.js';
import { RELEASE_SCRIPT, releaseArgs } from '../../src/redis/lua-scripts.js';
import { redisClients } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { gate } from '../support.js';
import { identity, until, useQuotaPair } from './quota-pair.js';

const skip = skipWithoutRedis('test/redis/redis-quota.test.ts');

describe.skipIf(skip).each(redisClients)('the Redis quota over $name', { timeout: 60_000 }, (kind) => {
  const { pair, quota, freshPrefix } = useQuotaPair(kind);

  /** Redis's clock (TIME) in µs, as the scripts read it. */
  const redisNow = async () => {
    const [seconds, micros] = ((await pair.redis.command(['TIME'])) as unknown[]).map(Number);
    return (seconds as number) * 1_000_000 + (micros as number);
  };

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
    // Redis's now when it ran the script lies between these two readings of its clock: bounds that hold
    // however long a loaded machine takes between the commands.
    const before = await redisNow();
    await pair.redis.command([
      'EVAL',
      RELEASE_SCRIPT,
      String(keys.length),
      ...keys,
      ...args.template,
      ...ends,
    ]);
    const after = await redisNow();
    const score = async (ticket: string) => Number(await pair.redis.command(['ZSCORE', day, ticket]));
    expect(after - (await score('a.1'))).toBeGreaterThanOrEqual(300_000);
    expect(before - (await score('a.1'))).toBeLessThanOrEqual(300_000);
    expect(after - (await score('a.2'))).toBeGreaterThanOrEqual(0);
    expect(before - (await score('a.2'))).toBeLessThanOrEqual(0);
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
});
