// What an operator runs a fleet with, against a real redis-server over node-redis and ioredis:
// close() refusing the calls still waiting, stats() as a watch and a readiness check, pacing, leaseMs.
import { describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { RedisQuota, type RedisQuotaOptions } from '../../src/redis/redis-quota.js';
import { createMockApi } from '../../src/testing/index.js';
import { expectPaced } from '../helpers/paced.js';
import { redisClients, useRedisPair } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { eventually, gate, TEST_KEY, testClient } from '../support.js';

const skip = skipWithoutRedis('test/redis/fleet.test.ts');
const identity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };
const attempt = { signal: undefined, timeout: 30_000 };

/** Until `quota.stats()` shows `expected`: Redis holds the state, however long the round trips take. */
const until = (quota: RedisQuota, expected: object) =>
  eventually(async () => expect(await quota.stats()).toMatchObject(expected));

describe.skipIf(skip).each(redisClients)('a fleet’s quota over $name', { timeout: 60_000 }, (kind) => {
  const pair = useRedisPair(kind);
  let prefixes = 0;

  const quota = (options: Omit<RedisQuotaOptions, 'redis'>, client = pair.redis, minuteMs = 60_000) =>
    new RedisQuota(
      { redis: client.client, prefix: `f${++prefixes}`, ...options },
      { minuteMs, dayMs: 86_400_000 },
    );

  it('close() refuses the calls waiting behind a full window at once; nothing reaches the server', async () => {
    const api = createMockApi({});
    const shared = quota({ maxRequestsPerMinute: 2 });
    const client = testClient({ quota: shared }, api);
    await client.subjects.list();
    await client.subjects.list();
    const waiting = [client.subjects.list(), client.subjects.list()].map((call) =>
      call.catch((e: unknown) => e),
    );
    // Both asked Redis and were told to wait for the window (a minute): close() comes meanwhile.
    await until(shared, { waiting: 2 });
    await shared.close();
    // Held by the window, they would have waited a minute and then been sent: refused unsent, they
    // were ended by close().
    const errors = await Promise.all(waiting);
    for (const error of errors) {
      expect(error).toBeInstanceOf(QuotaUnavailableError);
      expect((error as Error).message).toMatch(/closed.*nothing was sent/);
    }
    expect(api.requests.length).toBe(2);
    // They left Redis's line with close().
    const [line] = await pair.redis.keys(`f${prefixes}:*:q`);
    expect(line === undefined ? 0 : Number(await pair.redis.command(['ZCARD', line]))).toBe(0);
  });

  it('close() lets the calls in flight finish, then resolves', async () => {
    const shared = quota({ maxConcurrency: 1 });
    const part = shared.forClient(identity);
    const held = gate();
    let finished = false;
    const inFlight = part.run(async () => {
      await held.promise;
      finished = true;
      return 'answer';
    }, attempt);
    const queued = part.run(async () => 'never', attempt).catch((e: unknown) => e);
    await until(shared, { waiting: 1, inFlight: 1 });
    const closing = shared.close();
    expect(await queued).toBeInstanceOf(QuotaUnavailableError);
    held.open();
    expect(await inFlight).toBe('answer');
    await closing;
    expect(finished).toBe(true);
  });

  it('stats() just after this process’s calls resolve counts none of them in flight', async () => {
    const shared = quota({ maxConcurrency: 4 });
    const part = shared.forClient(identity);
    for (let round = 0; round < 5; round++) {
      await Promise.all([part.run(async () => 1, attempt), part.run(async () => 2, attempt)]);
      expect(await shared.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
    }
    await shared.close();
  });

  it('stats() tells what every process holds: waiting, in flight, starts, the pause in force', async () => {
    const a = quota({ maxConcurrency: 2, maxRequestsPerMinute: 10, maxRequestsPerDay: 100 });
    const prefix = `f${prefixes}`;
    const b = new RedisQuota({
      redis: pair.other.client,
      prefix,
      maxConcurrency: 2,
      maxRequestsPerMinute: 10,
      maxRequestsPerDay: 100,
    });
    expect(await a.stats()).toEqual({ waiting: 0, inFlight: 0, startedLastMinute: 0, startedToday: 0 });
    const partA = a.forClient(identity);
    const partB = b.forClient(identity);
    await partA.run(async () => 0, attempt);
    const held = gate();
    const running = [partA.run(() => held.promise, attempt), partB.run(() => held.promise, attempt)];
    const queued = partB.run(async () => 0, attempt);
    await until(b, { waiting: 1, inFlight: 2 });
    const during = await b.stats();
    expect(during).toEqual({ waiting: 1, inFlight: 2, startedLastMinute: 3, startedToday: 3 });
    held.open();
    await Promise.all([...running, queued]);
    partA.pause(30_000);
    // The last places go back to Redis after the calls resolve, the pause as it is set.
    await until(b, { waiting: 0, inFlight: 0, pause: expect.anything() });
    const paused = await b.stats();
    expect(paused).toMatchObject({ waiting: 0, inFlight: 0, startedLastMinute: 4, startedToday: 4 });
    expect(paused.pause?.remainingMs).toBeGreaterThan(20_000);
    expect(paused.block).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('stats() is a readiness check: QuotaUnavailableError while Redis is down, then answers again', async () => {
    const shared = quota({ maxConcurrency: 2 });
    await shared.stats();
    await pair.server.stop();
    try {
      const error = await shared.stats().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotaUnavailableError);
      expect((error as Error).message).not.toMatch(/no reason given/);
    } finally {
      await pair.server.start();
    }
    for (let i = 0; i < 100; i++) {
      if (
        await shared.stats().then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await shared.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
  });

  it("pacing: 'even' spaces starts at the window's rate across quotas, reserved in Redis", async () => {
    // 8 a window of 1.6 s: a start every 200 ms, whichever quota asks.
    const a = quota({ maxRequestsPerMinute: 8, pacing: 'even' }, pair.redis, 1_600);
    const b = new RedisQuota(
      { redis: pair.other.client, prefix: `f${prefixes}`, maxRequestsPerMinute: 8, pacing: 'even' },
      { minuteMs: 1_600, dayMs: 86_400_000 },
    );
    const starts: number[] = [];
    const send = async () => {
      starts.push(performance.timeOrigin + performance.now());
    };
    const parts = [a.forClient(identity), b.forClient(identity)];
    const asked = performance.timeOrigin + performance.now();
    await Promise.all(Array.from({ length: 8 }, (_, i) => parts[i % 2]?.run(send, attempt)));
    expect(starts).toHaveLength(8);
    expectPaced(starts, asked, 200);
    await Promise.all([a.close(), b.close()]);
  });

  it("pacing: 'even' with a line longer than a window's starts: every call waits its turn", async () => {
    // A start a minute: the 5th call's turn is more than two minutes away.
    const shared = quota({ maxRequestsPerMinute: 1, pacing: 'even' });
    const part = shared.forClient(identity);
    const calls = Array.from({ length: 6 }, () =>
      part.run(async () => 'sent', attempt).catch((e: unknown) => e),
    );
    await expect(calls[0]).resolves.toBe('sent');
    await until(shared, { waiting: 5 });
    await shared.close();
    for (const outcome of await Promise.all(calls.slice(1))) {
      expect(outcome).toBeInstanceOf(QuotaUnavailableError);
      // Refused by close() while waiting, never by a wait the quota took for an answer Redis never sends.
      expect((outcome as Error).message).toMatch(/closed/);
    }
  });

  it('leaseMs: a dead holder’s place comes back after leaseMs, not its timeout plus 5 s', async () => {
    const holder = quota({ maxConcurrency: 1, leaseMs: 1_000 });
    const prefix = `f${prefixes}`;
    // Held forever, as by a process killed mid-request: its end never reaches Redis. Its timeout is
    // ten minutes, so a lease made from it would outlast the test's own limit.
    void holder.forClient(identity).run(() => new Promise(() => {}), { signal: undefined, timeout: 600_000 });
    await until(holder, { inFlight: 1 });
    const next = new RedisQuota({ redis: pair.other.client, prefix, maxConcurrency: 1, leaseMs: 1_000 });
    const started = performance.now();
    await next.forClient(identity).run(async () => 0, attempt);
    expect(performance.now() - started).toBeGreaterThan(500);
  });

  it("pacing: 'even' booked ahead: each key outlives the entries it holds, so a place in flight is never lost", async () => {
    // 2 a window of 20 s: a start every 10 s, so the second call's start is booked 10 s ahead, with
    // a lease (1 s) far shorter than that.
    const windowMs = 20_000;
    const shared = quota(
      { maxRequestsPerMinute: 2, maxConcurrency: 1, pacing: 'even', leaseMs: 1_000 },
      pair.redis,
      windowMs,
    );
    const part = shared.forClient(identity);
    await part.run(async () => 0, attempt);
    const stop = new AbortController();
    const booked = part.run(async () => 1, { ...attempt, signal: stop.signal }).catch((e: unknown) => e);
    const prefix = `f${prefixes}`;
    const entries = async (key: string) =>
      ((await pair.redis.command(['ZRANGE', key, '0', '-1', 'WITHSCORES'])) as unknown[])
        .flat()
        .filter((_, i) => i % 2 === 1)
        .map(Number);
    // Until Redis holds the booked place: a lease scored at its end, after the start 10 s away.
    let leases = '';
    for (let i = 0; i < 200 && leases === ''; i++) {
      leases = (await pair.redis.keys(`${prefix}:*:l`))[0] ?? '';
      if (leases !== '' && (await entries(leases)).length === 0) leases = '';
      if (leases === '') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(leases).not.toBe('');
    const minuteLog = leases.replace(/:l$/, ':m');
    const [seconds, micros] = (await pair.redis.command(['TIME'])) as [string, string];
    const now = Number(seconds) * 1e6 + Number(micros);
    const lastsUntil = async (key: string) => now + Number(await pair.redis.command(['PTTL', key])) * 1_000;
    // The lease must last until its end; a start in the minute's log, a window past its lease's end.
    expect(Math.max(...(await entries(leases)))).toBeLessThanOrEqual(await lastsUntil(leases));
    expect(Math.max(...(await entries(minuteLog))) + windowMs * 1_000).toBeLessThanOrEqual(
      await lastsUntil(minuteLog),
    );
    stop.abort();
    await booked;
    await shared.close();
  });

  it('refuses a leaseMs under 1 s or past a day, and a pacing other than burst or even', () => {
    expect(() => quota({ leaseMs: 10 })).toThrow(/`leaseMs` must be an integer from 1000 to 86400000/);
    expect(() => quota({ leaseMs: 86_400_001 })).toThrow(/leaseMs/);
    expect(() => quota({ pacing: 'smooth' as never })).toThrow(/`pacing` must be 'burst' or 'even'/);
  });
});
