// Redis answers that come after the call stopped listening (a timeout, an abort): Redis ran the
// script all the same, so whatever it did for the ticket must be undone by the end the call sends.
import { describe, expect, it } from 'vitest';
import type { QuotaIdentity } from '../../src/core/quota-types.js';
import { QuotaUnavailableError } from '../../src/index.js';
import type { RedisClientLike } from '../../src/redis/adapter.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { redisClients, useRedisPair } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { eventually, gate, TEST_KEY } from '../support.js';

const skip = skipWithoutRedis('test/redis/late-answers.test.ts');

/** Until `check` passes: what Redis holds is waited for, however long a loaded machine's round trips take. */
const identity: QuotaIdentity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

/** `client` whose scripts run in Redis at once, but whose answers reach the quota `ms` later. */
function lateAnswers(client: RedisClientLike, ms: number): RedisClientLike {
  const scripts = new Set(['evalsha', 'evalSha', 'eval']);
  return new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !scripts.has(name) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => Promise<unknown>)
          .apply(target, args)
          .then((reply) => new Promise((resolve) => setTimeout(() => resolve(reply), ms)));
    },
  });
}

/**
 * `client` whose every script Redis runs twice, the first answer lost: what ioredis does when the
 * connection drops after Redis ran a command and before its answer came (it sends it again on
 * reconnecting). `asks` counts the scripts the quota sent.
 */
function resendingScripts(client: RedisClientLike): { client: RedisClientLike; asks: () => number } {
  const scripts = new Set(['evalsha', 'evalSha', 'eval']);
  let asks = 0;
  const resending = new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !scripts.has(name) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        asks++;
        const run = () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await run();
        return run();
      };
    },
  });
  return { client: resending, asks: () => asks };
}

/**
 * `client` whose first script reaches Redis `ms` late, and is answered then: what ioredis's cluster
 * does when it sends a command again by itself (after CLUSTERDOWN, TRYAGAIN or a reconnect), on its
 * own timer, after the call gave up and sent its end.
 */
function lateFirstScript(
  client: RedisClientLike,
  ms: number,
): { client: RedisClientLike; ran: Promise<void> } {
  const scripts = new Set(['evalsha', 'evalSha', 'eval']);
  let first = true;
  let ran: () => void = () => {};
  const late = new Proxy(client, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string' || !scripts.has(name) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const apply = () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (!first) return apply();
        first = false;
        return new Promise((resolve) => setTimeout(resolve, ms)).then(apply).finally(() => ran());
      };
    },
  });
  return { client: late, ran: new Promise((resolve) => (ran = resolve)) };
}

describe.skipIf(skip).each(redisClients)(
  'answers that come too late, over $name',
  { timeout: 30_000 },
  (kind) => {
    const pair = useRedisPair(kind);
    let prefixes = 0;

    async function lineLength(prefix: string): Promise<number> {
      const [line] = await pair.redis.keys(`${prefix}:*:q`);
      return line === undefined ? 0 : Number(await pair.redis.command(['ZCARD', line]));
    }

    /** The starts counted in the minute and the day windows of the quota under `prefix`. */
    async function windowCounts(prefix: string): Promise<number[]> {
      const counts = [];
      for (const window of ['m', 'd']) {
        const [key] = await pair.redis.keys(`${prefix}:*:${window}`);
        counts.push(key === undefined ? 0 : Number(await pair.redis.command(['ZCARD', key])));
      }
      return counts;
    }

    it('a place Redis granted after the call stopped waiting counts in no window: nothing was sent', async () => {
      const prefix = `late${++prefixes}`;
      const limits = { maxRequestsPerMinute: 5, maxRequestsPerDay: 100, prefix };
      const late = new RedisQuota({ redis: lateAnswers(pair.other.client, 400), ...limits }).forClient(
        identity,
      );
      let sent = false;
      const call = late.run(
        async () => {
          sent = true;
        },
        { signal: undefined, timeout: 100 },
      );
      await expect(call).rejects.toBeInstanceOf(QuotaUnavailableError);
      expect(sent).toBe(false);
      // Redis ran the ask at once (only its answer is late) and counted a start in both windows; the
      // end the call sent takes it out of them again.
      await eventually(async () => expect(await windowCounts(prefix)).toEqual([0, 0]));
      // A call that is sent counts as ever.
      await expect(late.run(async () => 'next', { signal: undefined, timeout: 3_000 })).resolves.toBe('next');
      expect(await windowCounts(prefix)).toEqual([1, 1]);
    });

    it.each([
      ['maxConcurrency', { maxConcurrency: 1 }],
      ['maxRequestsPerMinute', { maxRequestsPerMinute: 1 }],
    ])(
      'an ask Redis ran twice (%s) grants the one place once, at once: no wait behind itself',
      async (_, limit) => {
        const prefix = `late${++prefixes}`;
        const resent = resendingScripts(pair.other.client);
        const quota = new RedisQuota({ redis: resent.client, ...limit, prefix });
        const part = quota.forClient(identity);
        let asksBeforeStart = 0;
        // Bounded, so that a wait behind its own place fails here rather than at the lease's end.
        const ran = part.run(
          async () => {
            asksBeforeStart = resent.asks();
            return 'sent';
          },
          { signal: undefined, timeout: 10_000 },
        );
        await expect(ran).resolves.toBe('sent');
        // One ask, granted: a second would mean the first came back as a wait behind the ticket's own place.
        expect(asksBeforeStart).toBe(1);
        await quota.close();
        if ('maxConcurrency' in limit) {
          const [leases] = await pair.redis.keys(`${prefix}:*:l`);
          expect(leases === undefined ? 0 : Number(await pair.redis.command(['ZCARD', leases]))).toBe(0);
        }
      },
    );

    it('an ask that reaches Redis after the call gave up and sent its end holds no place', async () => {
      const prefix = `late${++prefixes}`;
      const delayed = lateFirstScript(pair.other.client, 600);
      // A lease of a minute: one left held outlasts the wait below.
      const late = new RedisQuota({ redis: delayed.client, maxConcurrency: 1, leaseMs: 60_000, prefix });
      const call = late.forClient(identity).run(async () => 'sent', { signal: undefined, timeout: 100 });
      await expect(call).rejects.toBeInstanceOf(QuotaUnavailableError);
      // The end went first, and found nothing; then Redis ran the ask and granted the one place.
      await delayed.ran;
      // Given back by a second end: nobody holds the lease, which would otherwise keep the place from
      // every other call of the fleet until it ends.
      await eventually(async () => {
        const [leases] = await pair.redis.keys(`${prefix}:*:l`);
        expect(leases === undefined ? 0 : Number(await pair.redis.command(['ZCARD', leases]))).toBe(0);
      });
      await late.close();
    });

    it.each([
      ['its timeout', 'timeout'],
      ['an abort', 'abort'],
    ] as const)('a call that stopped waiting on %s leaves the line Redis put it in', async (_, how) => {
      const prefix = `late${++prefixes}`;
      const holder = new RedisQuota({ redis: pair.redis.client, maxConcurrency: 1, prefix }).forClient(
        identity,
      );
      const late = new RedisQuota({
        redis: lateAnswers(pair.other.client, 400),
        maxConcurrency: 1,
        prefix,
      }).forClient(identity);
      const held = gate();
      const first = holder.run(() => held.promise);
      const controller = new AbortController();
      let sent = false;
      const waiting = late.run(
        async () => {
          sent = true;
        },
        { signal: controller.signal, timeout: how === 'timeout' ? 100 : 5_000 },
      );
      if (how === 'abort') setTimeout(() => controller.abort(new Error('stop')), 100);
      const error = await waiting.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(how === 'timeout' ? QuotaUnavailableError : Error);
      expect(sent).toBe(false);
      // Redis ran the first ask, which found the place held and put the ticket in line.
      held.open();
      await first;
      // The end the call sent takes it out again: the next call does not wait behind a ticket nobody holds.
      await eventually(async () => expect(await lineLength(prefix)).toBe(0));
      await expect(holder.run(async () => 'next', { signal: undefined, timeout: 3_000 })).resolves.toBe(
        'next',
      );
    });
  },
);
