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
});
