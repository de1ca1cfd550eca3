// A real redis-server for the tests that need one (the shared quota, the cache's Redis store): Debian's
// redis-server, started by the test on a free 127.0.0.1 port in a temp folder, with no persistence,
// and stopped by PID. Missing: a loud skip locally, a failure with CI=true (.ci/run installs it).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeStablePort } from './free-port.js';
import { skipWithout } from './real-part.js';
import { tiedToThisProcess } from './tied.js';

/** The redis-server binary, or `undefined` when it is not installed. */
export const redisServerBinary = ['redis-server', '/usr/bin/redis-server'].find(
  (bin) => spawnSync(bin, ['--version']).status === 0,
);

/**
 * Whether a test file that needs Redis should skip: only when redis-server is missing and this is not
 * CI. Call it at the top of the file; it prints why, so the skip is never silent.
 */
export function skipWithoutRedis(file: string): boolean {
  const present = redisServerBinary !== undefined;
  return skipWithout({ name: 'redis-server', present, install: 'apt-get install redis-server' }, file);
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The server's PID while it runs. */
  readonly pid: number | undefined;
  /** Stops the server (SIGKILL, as a crash would); `start()` brings it back on the same port, empty. */
  stop(): Promise<void>;
  /** Starts it again after `stop()`, on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/**
 * Starts redis-server on 127.0.0.1:`port` in `dir`, with no persistence and `extra` arguments (a
 * cluster's, a password), tied to this process (see tied.ts); resolves once it accepts connections.
 */
export async function spawnRedisServer(
  port: number,
  dir: string,
  extra: readonly string[] = [],
): Promise<ChildProcess> {
  if (redisServerBinary === undefined) {
    throw new Error('redis-server is not installed: .ci/run installs it with apt-get');
  }
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(...tiedToThisProcess(redisServerBinary, [...args, '--dir', dir, ...extra]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await whenRedisReady(child, port);
  return child;
}

/** Starts a redis-server of the test's own; resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  if (redisServerBinary === undefined) {
    throw new Error('redis-server is not installed: .ci/run installs it with apt-get');
  }
  const dir = await mkdtemp(join(tmpdir(), 'sm-redis-'));
  // Started again on this port after stop(): one a client's connection cannot take meanwhile.
  const port = await freeStablePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    child = await spawnRedisServer(port, dir);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once the redis-server `child` says it accepts connections; rejects (killing it) when it
 * exits first or is not ready within 20 s, with what it printed.
 */
export function whenRedisReady(child: ChildProcess, port: number): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not get ready on ${port}:\n${output}`));
    }, 20_000);
    const onData = (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on ${port} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}
