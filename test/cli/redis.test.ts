// `--redis <url>`: runs sharing one quota through a real redis-server, against the mock server; runs
// in-process where the process adds nothing, the real bin where separate processes or Node's module
// loading are the point. Counts and orders only: a run waiting for a place is seen in Redis's own
// line, never timed.
import { readFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { createMockApi, MOCK_DOIS, type MockApi, startMockServer } from '../../src/testing/index.js';
import { freePort } from '../helpers/free-port.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { run, runBin, start } from './helpers.js';
import { scratch } from './resume.js';

const skip = skipWithoutRedis('test/cli/redis.test.ts');
const password = 'S3cret-pw';
const withoutRedis = fileURLToPath(new URL('./fixtures/without-redis.mjs', import.meta.url));

describe('scholarly-metrics --redis: what needs no Redis', () => {
  it('a URL that is not redis:// or rediss:// is a usage error (exit 2), its password masked', async () => {
    const result = await run([
      '--mock',
      '--redis',
      `http://user:${password}@127.0.0.1:6379`,
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --redis expects a redis:\/\/ or rediss:\/\/ URL/);
    expect(result.stderr).toContain('http://user:[redacted]@127.0.0.1:6379');
    expect(result.stderr).not.toContain(password);
    const garbage = await run(['--mock', '--redis', `not a url ${password}`, 'subjects', 'list']);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).not.toContain(password);
  });

  it('a URL quoted in a usage error: query values and fragment masked, cut at 120 characters', async () => {
    const query = 'Qu3ry-pw';
    const result = await run([
      '--mock',
      '--redis',
      `http://user:${password}@127.0.0.1:6379/0?password=${query}&db=2#${query}`,
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '(got http://user:[redacted]@127.0.0.1:6379/0?password=[redacted]&db=[redacted]#[redacted])',
    );
    expect(result.stderr).not.toContain(query);
    const long = await run([
      '--mock',
      '--redis',
      `http://127.0.0.1:6379/${'x'.repeat(200)}`,
      'subjects',
      'list',
    ]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain(
      `(got http://127.0.0.1:6379/${'x'.repeat(120 - 'http://127.0.0.1:6379/'.length)}…)\n`,
    );
  });

  it('a URL with no // before its user and password (scheme-less): a usage error showing neither', async () => {
    const result = await run(['--mock', '--redis', `user:${password}@127.0.0.1:6379`, 'subjects', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(got [redacted]@127.0.0.1:6379)');
    expect(result.stderr).not.toContain(password);
  });

  it('an unreachable Redis whose URL has a query: its values masked in the error line', async () => {
    const port = await freePort();
    const result = await run([
      '--mock',
      '--redis',
      `redis://127.0.0.1:${port}?password=Qu3ry-pw`,
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: QuotaUnavailableError: cannot connect to Redis at redis://127\\.0\\.0\\.1:${port}\\?password=\\[redacted\\] `,
      ),
    );
    expect(result.stderr).not.toContain('Qu3ry-pw');
  });

  it('--redis-max-concurrency and --redis-prefix need --redis (exit 2)', async () => {
    for (const flag of [
      ['--redis-max-concurrency', '2'],
      ['--redis-prefix', 'mine'],
    ]) {
      const result = await run(['--mock', ...flag, 'subjects', 'list']);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: ${flag[0]} needs --redis <url> or --redis-cluster <urls> (or METRIC_REDIS_URL)\n`,
      );
    }
  });

  it('an unreachable Redis: one error line, exit 1, nothing sent, the password never shown', async () => {
    const port = await freePort();
    for (const args of [
      ['--redis', `redis://user:${password}@127.0.0.1:${port}`, '--mock', 'subjects', 'list'],
      ['--debug', '--mock', 'subjects', 'list'],
    ]) {
      const result = await run(args, {
        env: { METRIC_REDIS_URL: `redis://user:${password}@127.0.0.1:${port}` },
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: QuotaUnavailableError: cannot connect to Redis at redis://user:\\[redacted\\]@127\\.0\\.0\\.1:${port}`,
        ),
      );
      expect(result.stderr).not.toContain(password);
    }
    const plain = await run([
      '--redis',
      `redis://user:${password}@127.0.0.1:${port}`,
      '--mock',
      'subjects',
      'list',
    ]);
    expect(plain.stderr.split('\n')).toEqual([expect.stringMatching(/ECONNREFUSED/), '']);
  });

  it.each([
    ['a password alone', 'redis://S3cret-pw@127.0.0.1', 'redis://[redacted]@127.0.0.1'],
    ['user and password', 'redis://user:S3cret-pw@127.0.0.1', 'redis://user:[redacted]@127.0.0.1'],
    ['TLS', 'rediss://user:S3cret-pw@127.0.0.1', 'rediss://user:[redacted]@127.0.0.1'],
    ['an empty user', 'redis://:S3cret-pw@127.0.0.1', 'redis://:[redacted]@127.0.0.1'],
    ['percent-encoded', 'redis://user:S3cret%2Dp%40w@127.0.0.1', 'redis://user:[redacted]@127.0.0.1'],
  ])('credentials as %s: masked in every line, --debug and all', async (_, given, masked) => {
    const port = await freePort();
    const result = await run(['--debug', '--mock', '--redis', `${given}:${port}`, 'subjects', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot connect to Redis at ${masked}:${port}`);
    expect(result.stderr).toMatch(/^\s+at /m); // the stack is there, and masked too
    for (const secret of ['S3cret-pw', 'S3cret%2Dp%40w', 'S3cret-p@w'])
      expect(result.stderr).not.toContain(secret);
  });

  it('without the redis package installed: a usage error saying npm install redis (exit 2)', {
    timeout: 60_000,
  }, async () => {
    // The real bin: Node's module loading is the point.
    const result = await runBin(['--mock', '--redis', 'redis://127.0.0.1:6379', 'subjects', 'list'], {
      env: { NODE_OPTIONS: `--import=${withoutRedis}` },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --redis needs the node-redis package: npm install redis\n');
    // Without --redis, the package is never looked for.
    const plain = await runBin(['--mock', 'subjects', 'list', '--format', 'jsonl'], {
      env: { NODE_OPTIONS: `--import=${withoutRedis}` },
    });
    expect(plain.code, plain.stderr).toBe(0);
  });

  it.each(['redis', 'rediss'])(
    'a %s:// server that accepts and never answers: QuotaUnavailableError within 5 s, exit 1, nothing sent',
    async (scheme) => {
      const silent = await silentServer();
      try {
        const result = await run(
          ['--redis', `${scheme}://:${password}@127.0.0.1:${silent.port}`, 'subjects', 'list'],
          {
            url: 'http://127.0.0.1:9/api/v1',
          },
        );
        expect(result.stderr).toBe(
          `error: QuotaUnavailableError: cannot connect to Redis at ${scheme}://:[redacted]@127.0.0.1:${silent.port} ` +
            '(no answer within 5 s); nothing was sent\n',
        );
        expect(result.code).toBe(1);
        expect(silent.connections()).toBeGreaterThan(0);
      } finally {
        await silent.close();
      }
    },
  );

  it('Ctrl-C while connecting to a silent Redis: exit 130 at once, the connection dropped', async () => {
    const silent = await silentServer();
    const interrupt = new AbortController();
    try {
      const running = run(['--mock', '--redis', `redis://127.0.0.1:${silent.port}`, 'subjects', 'list'], {
        signal: interrupt.signal,
      });
      await expect.poll(() => silent.connections()).toBeGreaterThan(0);
      interrupt.abort(new InterruptedError('interrupted'));
      const result = await running;
      expect(result.code).toBe(130);
      expect(result.stderr).toBe('error: InterruptedError: stopped by Ctrl-C\n');
      await expect.poll(() => silent.open()).toBe(0);
    } finally {
      await silent.close();
    }
  });

  it('--help shows an example with --redis', async () => {
    expect((await run(['--help'])).stdout).toMatch(/\$ scholarly-metrics --redis redis:\/\/localhost:6379 /);
  });
});

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

/** A TCP server on 127.0.0.1 that accepts every connection and never sends a byte. */
async function silentServer() {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    // Read (and drop) what comes: a paused socket would never see the other end close.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

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
