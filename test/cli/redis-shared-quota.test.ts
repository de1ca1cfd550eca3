// `--redis <url>`: runs sharing one quota through a real redis-server, against the mock server; runs
// in-process where the process adds nothing, the real bin where separate processes are the point.
// Counts and orders only: a run waiting for a place is seen in Redis's own line, never timed.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi, MOCK_DOIS, type MockApi, startMockServer } from '../../src/testing/index.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { run, start } from './helpers.js';
import { scratch } from './resume.js';

const skip = skipWithoutRedis('test/cli/redis-shared-quota.test.ts');
const password = 'S3cret-pw';

describe.skipIf(skip)('scholarly-metrics --redis: runs sharing one quota', { timeout: 120_000 }, () => {
  let redisServer: RedisServer;
  let url: string;
  let prefixes = 0;
  const prefix = () => `cli-test-${process.pid}-${++prefixes}`;

  beforeAll(async () => {
    redisServer = await startRedisServer();
    // A password, as a hosted Redis has: it must show nowhere.
    const admin = await createClient({ url: redisServer.url }).connect();
    await admin.configSet('requirepass', password);
    admin.destroy();
    url = `redis://default:${password}@127.0.0.1:${redisServer.port}`;
  });
  afterAll(async () => {
    await redisServer?.close();
  });

  it('a daily-limit 429 met by one run: another run on the same Redis exits 75 without sending', async () => {
    const mock = await startMockServer({
      sizes: { journals: 5, papers: 50, authors: 20 },
      limits: { perDay: 2 },
      now: () => Date.parse('2026-03-01T12:00:00Z'), // Retry-After: 12 h, far over a minute
    });
    const dir = scratch();
    try {
      const shared = ['--redis', url, '--redis-prefix', prefix()];
      const output = join(dir, 'papers.jsonl');
      const walk = ['papers', 'search', '--all', '--per-page', '2', '--format', 'jsonl', '--output', output];
      // Pages 1 and 2, then the daily limit on page 3.
      const first = await run([...shared, ...walk], { url: mock.url });
      expect(first.code, first.stderr).toBe(75);
      expect(first.stderr).toMatch(/^error: RateLimitError: /);
      expect(mock.api.requests.map((r) => r.status)).toEqual([200, 200, 429]);
      // The checkpoint holds neither the URL nor its password: a resume may use another Redis.
      const checkpoint = await readFile(`${output}.checkpoint.json`, 'utf8');
      expect(checkpoint).not.toMatch(/redis|S3cret/i);

      // Another run sharing the Redis is refused before it sends anything.
      const other = await run([...shared, 'subjects', 'list'], { url: mock.url });
      expect(other.code, other.stderr).toBe(75);
      expect(other.stderr).toMatch(
        /^error: RateLimitError: [^\n]*A client sharing this quota was refused by the daily limit: not sent/,
      );
      expect(other.stderr).toMatch(
        /\nhint: the rate limit clears in \d+ h \d+ min: run the same command again after /,
      );
      expect(other.stderr).not.toContain(password);
      expect(mock.api.requests).toHaveLength(3);

      // The resume of the walk over another quota (another prefix) is this same command: it sends,
      // and meets the mock's own daily limit.
      const resumed = await run(['--redis', url, '--redis-prefix', prefix(), ...walk, '--resume'], {
        url: mock.url,
      });
      expect(resumed.code, resumed.stderr).toBe(75);
      expect(resumed.stderr).not.toContain('another command');
      expect(mock.api.requests.map((r) => r.status)).toEqual([200, 200, 429, 429]);
    } finally {
      await mock.close();
    }
  });

  it('--redis-max-concurrency 1 holds across runs: the second waits in Redis while the first is answered', async () => {
    const gated = gatedMock(createMockApi({ sizes: { journals: 5, papers: 50, authors: 20 } }));
    const mock = await startMockServer({ api: gated.api });
    const redis = await createClient({ url }).connect();
    try {
      const p = prefix();
      const shared = ['--redis', url, '--redis-prefix', p, '--redis-max-concurrency', '1'];
      const first = start([...shared, 'papers', 'get', MOCK_DOIS[0]!, '--format', 'jsonl'], {
        url: mock.url,
      });
      await arrivedFrom(first, gated, 1);
      const second = start([...shared, 'papers', 'get', MOCK_DOIS[1]!, '--format', 'jsonl'], {
        url: mock.url,
      });
      // The second run is in the quota's line in Redis while the first holds the one place (a quota
      // not shared would let it reach the mock instead).
      while (gated.arrivals === 1) {
        const [line] = await redis.keys(`${p}:*:q`);
        if (line !== undefined && (await redis.zCard(line)) === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(gated.arrivals).toBe(1);
      gated.open();
      const [a, b] = await Promise.all([first.exited, second.exited]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      expect(gated.arrivals).toBe(2);
      expect(gated.highestInFlight).toBe(1);
      // Both runs closed their connection and gave their place back: no lease is left.
      const leases = await redis.keys(`${p}:*:l`);
      for (const key of leases) expect(await redis.zCard(key)).toBe(0);
    } finally {
      gated.open();
      redis.destroy();
      await mock.close();
    }
  });

  // A walk stops at Ctrl-C; a one-record command does not listen for it, so its request stays out
  // (held until the end here) and the run must not wait for it, nor for its lease (the SDK's 30 s
  // timeout and more: a run that waited would outlast this test's own timeout).
  it.each([
    { what: 'a walk', command: ['papers', 'search', '--limit', '5'] },
    { what: 'a one-record request', command: ['papers', 'get', MOCK_DOIS[0]!] },
  ])(
    'Ctrl-C while $what is out: exit 130, the connection closed (the process ends)',
    {
      timeout: 20_000,
    },
    async ({ command }) => {
      const gated = gatedMock(createMockApi({}));
      const mock = await startMockServer({ api: gated.api });
      try {
        const args = ['--redis', url, '--redis-prefix', prefix(), ...command];
        const held = start([...args, '--format', 'jsonl'], { url: mock.url });
        await arrivedFrom(held, gated, 1);
        held.child.kill('SIGINT');
        const result = await held.exited;
        expect(result.code, result.stderr).toBe(130);
        expect(result.stderr).toBe('error: InterruptedError: stopped by Ctrl-C\n');
      } finally {
        gated.open();
        await mock.close();
      }
    },
  );

  // Last: it stops the server.
  it('Redis gone mid-run: the waiting run fails with QuotaUnavailableError (exit 1), the other ends', async () => {
    const gated = gatedMock(createMockApi({}));
    const mock = await startMockServer({ api: gated.api });
    const redis = await createClient({ url }).connect();
    try {
      const p = prefix();
      const shared = ['--redis', url, '--redis-prefix', p, '--redis-max-concurrency', '1'];
      const first = await startHeld(gated, mock.url, shared);
      const second = start([...shared, 'papers', 'get', MOCK_DOIS[1]!, '--format', 'jsonl'], {
        url: mock.url,
      });
      while ((await redis.keys(`${p}:*:q`)).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      redis.destroy();
      await redisServer.stop();
      const waiting = await second.exited;
      expect(waiting.code, JSON.stringify(waiting)).toBe(1);
      expect(waiting.stderr).toMatch(/^error: QuotaUnavailableError: Redis [^\n]+\n$/);
      expect(waiting.stderr).not.toContain(password);
      gated.open();
      const held = await first.exited;
      expect(held.code, held.stderr).toBe(0);
      expect(gated.arrivals).toBe(1);
    } finally {
      gated.open();
      if (redis.isOpen) redis.destroy();
      await mock.close();
    }
  });
});

/** A run of `papers get` on a gated mock with the quota of `args`, once its request has arrived. */
async function startHeld(gated: ReturnType<typeof gatedMock>, mockUrl: string, args: string[], doi = 0) {
  const running = start([...args, 'papers', 'get', MOCK_DOIS[doi]!, '--format', 'jsonl'], { url: mockUrl });
  await arrivedFrom(running, gated, gated.arrivals + 1);
  return running;
}

/** Until the mock has seen `count` requests, or a failure as soon as `run` ends without sending its own. */
function arrivedFrom(run: ReturnType<typeof start>, gated: ReturnType<typeof gatedMock>, count: number) {
  const ended = run.exited.then(({ code, stderr }) => {
    throw new Error(`the run ended (${code}) before its request reached the mock:\n${stderr}`);
  });
  ended.catch(() => {});
  return Promise.race([gated.arrived(count), ended]);
}

/** The mock, holding every answer until `open()`; it counts arrivals and requests in flight. */
function gatedMock(api: MockApi) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let arrivals = 0;
  let inFlight = 0;
  let highest = 0;
  const gatedApi = Object.create(api) as MockApi;
  Object.defineProperty(gatedApi, 'handle', {
    value: async (request: Request) => {
      arrivals++;
      highest = Math.max(highest, ++inFlight);
      for (const waiter of waiters) if (arrivals >= waiter.count) waiter.resolve();
      try {
        await gate;
        return await api.handle(request);
      } finally {
        inFlight--;
      }
    },
  });
  return {
    api: gatedApi,
    open: () => release(),
    arrived: (count: number) =>
      new Promise<void>((resolve) => {
        if (arrivals >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    get arrivals() {
      return arrivals;
    },
    get highestInFlight() {
      return highest;
    },
  };
}
