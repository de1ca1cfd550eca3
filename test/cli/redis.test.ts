// `--redis <url>`: what needs no Redis (its URL checked and masked, a Redis unreachable or silent);
// runs sharing one quota through a real redis-server: redis-shared-quota.test.ts. Runs in-process
// where the process adds nothing, the real bin where Node's module loading is the point.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { freePort } from '../helpers/free-port.js';
import { run, runBin } from './helpers.js';

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
    // Given by the variable, the message names the variable.
    const fromEnv = await run(['--mock', 'subjects', 'list'], {
      env: { METRIC_REDIS_URL: 'http://127.0.0.1:6379' },
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^error: METRIC_REDIS_URL expects a redis:\/\/ or rediss:\/\/ URL/);
  });

  it.each([
    ['--redis', (url: string) => ({ args: ['--redis', url], env: {} })],
    ['--redis-cluster', (url: string) => ({ args: ['--redis-cluster', url], env: {} })],
    ['METRIC_REDIS_URL', (url: string) => ({ args: [], env: { METRIC_REDIS_URL: url } })],
  ])(
    'a password with a bare %% through %s is a usage error saying to write %%25, the password masked',
    async (_, given) => {
      const { args, env } = given(`redis://user:50%off-${password}@127.0.0.1:6379`);
      const result = await run(['--mock', ...args, 'subjects', 'list'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        "the URL's user or password holds a % that is no escape: write a % as %25",
      );
      expect(result.stderr).not.toContain(password);
      expect(result.stderr).not.toContain('URIError');
    },
  );

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
