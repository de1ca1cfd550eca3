import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MOCK_API_KEY } from '../../src/testing/index.js';
import { spawnNode } from '../helpers/spawn.js';

const cli = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));

function run(args: string[]) {
  const spawned = spawnNode(cli, args);
  return {
    child: spawned.child,
    output: spawned.output,
    exit: async () => (await spawned.exited).code,
  };
}

const small = ['--journals', '5', '--papers', '50', '--authors', '10'];

/** Starts the mock with `args` and a small dataset; resolves with its base URL. */
async function started(args: string[]) {
  const mock = run(['--port', '0', ...small, ...args]);
  await expect.poll(() => mock.output().stdout, { timeout: 10_000 }).toMatch(/\n/);
  return { mock, url: mock.output().stdout.split('\n')[0]! };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('scholarly-metrics-mock (the bin)', () => {
  it('prints the base URL alone on the first stdout line, serves it, and stops on SIGTERM', async () => {
    const mock = run(['--port', '0', '--journals', '5', '--papers', '50', '--authors', '10']);
    await expect.poll(() => mock.output().stdout, { timeout: 10_000 }).toMatch(/\n/);
    const url = mock.output().stdout.split('\n')[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const response = await fetch(`${url}/journals`, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } });
    expect(await response.json()).toHaveLength(5);
    await expect.poll(() => mock.output().stderr).toContain(MOCK_API_KEY);
    mock.child.kill('SIGTERM');
    expect(await mock.exit()).toBe(0);
  });

  it('limits requests per short window with --per-window <requests>/<ms>', async () => {
    // An hour-long window: the second request meets it however slow the machine is.
    const mock = run([
      '--port',
      '0',
      '--journals',
      '5',
      '--papers',
      '50',
      '--authors',
      '10',
      '--per-window',
      '1/3600000',
    ]);
    await expect.poll(() => mock.output().stdout, { timeout: 10_000 }).toMatch(/\n/);
    const url = mock.output().stdout.split('\n')[0]!;
    const send = () => fetch(`${url}/subjects`, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } });
    expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await limited.json()).toMatchObject({ message: expect.stringContaining('per 3600000 ms') });
    mock.child.kill('SIGTERM');
    expect(await mock.exit()).toBe(0);
  });

  it('lets the pages named by --control-origin (repeatable) call the control endpoints, and no other', async () => {
    const pages = ['http://localhost:5173', 'https://dash.example'];
    const mock = run(
      ['--port', '0', '--journals', '5', '--papers', '50', '--authors', '10'].concat(
        pages.flatMap((page) => ['--control-origin', page]),
      ),
    );
    await expect.poll(() => mock.output().stdout, { timeout: 10_000 }).toMatch(/\n/);
    const origin = new URL(mock.output().stdout.split('\n')[0]!).origin;
    const reset = (page: string) =>
      fetch(`${origin}/__mock/reset`, {
        method: 'POST',
        headers: { origin: page, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      });
    for (const page of pages) expect((await reset(page)).status, page).toBeLessThan(300);
    expect((await reset('http://localhost:5174')).status).toBe(403);
    await expect.poll(() => mock.output().stderr).toContain('control from page  https://dash.example');
    mock.child.kill('SIGTERM');
    expect(await mock.exit()).toBe(0);
  });

  it('explains its options with --help', async () => {
    const help = run(['--help']);
    expect(await help.exit()).toBe(0);
    expect(help.output().stdout).toContain('--per-minute');
    expect(help.output().stdout).toContain('--per-window <n>/<ms>');
    expect(help.output().stdout).toContain('--control-origin <o>');
  });

  it('exits 2 with the usage on a bad option value', async () => {
    const bad = run(['--error-rate', '3']);
    expect(await bad.exit()).toBe(2);
    expect(bad.output().stderr).toMatch(/--error-rate expects a number from 0 to 1/);
    for (const value of ['5', '5/0', '5/2s', '1.5/2000']) {
      const window = run(['--per-window', value]);
      expect(await window.exit(), value).toBe(2);
      expect(window.output().stderr, value).toMatch(/--per-window expects <requests>\/<ms>/);
    }
    for (const value of ['300-400-0', '5-10-20', '-']) {
      const latency = run(['--latency', value]);
      expect(await latency.exit(), value).toBe(2);
      expect(latency.output().stderr, value).toMatch(/--latency/);
    }
    for (const value of ['localhost:5173', 'ftp://files.example', 'http://localhost:5173/app']) {
      const origin = run(['--control-origin', value]);
      expect(await origin.exit(), value).toBe(2);
      expect(origin.output().stderr, value).toContain(`--control-origin expects an origin`);
    }
  });

  it('passes SIGHUP on to the command of -- mode, waits for it and exits with its status', async () => {
    const command = [process.execPath, '-e', 'console.log(process.pid); setInterval(() => {}, 1000)'];
    const mock = run(['--port', '0', ...small, '--', ...command]);
    await expect.poll(() => mock.output().stdout, { timeout: 10_000 }).toMatch(/^\d+\n/);
    const pid = Number(mock.output().stdout.split('\n')[0]);
    try {
      mock.child.kill('SIGHUP');
      // As a shell reports a command ended by SIGHUP: 128 + 1.
      expect(await mock.exit()).toBe(129);
      expect(alive(pid)).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('reports a port in use, or a host it cannot listen on, in one line with exit 1 and no usage', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as { port: number };
    try {
      const cases: [string[], string][] = [
        [['--port', String(port)], String(port)],
        [['--port', '0', '--host', '192.0.2.1'], '192.0.2.1'],
        [['--port', '0', '--host', 'no-such-host.invalid'], 'no-such-host.invalid'],
      ];
      for (const [args, named] of cases) {
        const failed = run([...args, ...small]);
        expect(await failed.exit(), args.join(' ')).toBe(1);
        const { stderr } = failed.output();
        expect(stderr, args.join(' ')).toMatch(/^scholarly-metrics-mock: [^\n]+\n$/);
        expect(stderr, args.join(' ')).toContain(named);
        expect(stderr, args.join(' ')).not.toContain('Usage');
      }
    } finally {
      holder.close();
    }
  });

  it("names its own flags, not the library's options, in the refusals it leaves to the library", async () => {
    const cases: [string[], string][] = [
      [['--port', '70000'], '--port must be an integer from 0 to 65535'],
      [['--latency', '5-3'], '--latency expects <ms> or <min>-<max> with min <= max'],
      [
        ['--error-rate', '0.8', '--reset-rate', '0.8'],
        '--error-rate + --reset-rate + --malformed-rate must not exceed 1',
      ],
      [['--papers', '50', '--authors', '0'], '--authors'],
      [['--webhook', 'http://user:secret@hooks.example/'], '--webhook expects an absolute http(s) URL'],
    ];
    for (const [args, message] of cases) {
      const bad = run(args);
      expect(await bad.exit(), args.join(' ')).toBe(2);
      const { stderr } = bad.output();
      expect(stderr.split('\n')[0], args.join(' ')).toContain(message);
      expect(stderr.split('\n')[0], args.join(' ')).not.toMatch(/`|faults|sizes|latencyMs|errorRate/);
      expect(stderr, args.join(' ')).toContain('Usage: scholarly-metrics-mock');
    }
  });

  it('refuses --control-origin with --no-control as a usage error', async () => {
    const bad = run(['--no-control', '--control-origin', 'http://localhost:5173']);
    expect(await bad.exit()).toBe(2);
    expect(bad.output().stderr).toMatch(/--control-origin.*--no-control|--no-control.*--control-origin/);
    expect(bad.output().stderr).toContain('Usage: scholarly-metrics-mock');
  });

  it('accepts a --control-origin written with its default port, as startMockServer() does', async () => {
    const { mock, url } = await started([
      '--control-origin',
      'http://localhost:80',
      '--control-origin',
      'https://app.test:443/',
    ]);
    const reset = (page: string) =>
      fetch(`${new URL(url).origin}/__mock/reset`, {
        method: 'POST',
        headers: { origin: page, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      });
    for (const page of ['http://localhost', 'https://app.test'])
      expect((await reset(page)).status, page).toBeLessThan(300);
    await expect.poll(() => mock.output().stderr).toMatch(/control from page {2}http:\/\/localhost\n/);
    expect(mock.output().stderr).toMatch(/control from page {2}https:\/\/app\.test\n/);
    mock.child.kill('SIGTERM');
    expect(await mock.exit()).toBe(0);
  });

  it('seeds the random faults with --seed: another seed, another sequence; the same seed, the same', async () => {
    const statuses = async (seed: string) => {
      const { mock, url } = await started(['--seed', seed, '--error-rate', '0.5']);
      const seen: number[] = [];
      for (let i = 0; i < 24; i++) {
        const response = await fetch(`${url}/subjects`, {
          headers: { authorization: `Bearer ${MOCK_API_KEY}` },
        });
        await response.arrayBuffer();
        seen.push(response.status);
      }
      mock.child.kill('SIGTERM');
      expect(await mock.exit()).toBe(0);
      return seen.join(' ');
    };
    const seven = await statuses('7');
    expect(seven).toContain('500');
    expect(await statuses('7')).toBe(seven);
    expect(await statuses('1')).not.toBe(seven);
    expect(await statuses('12345')).not.toBe(seven);
  });
});
