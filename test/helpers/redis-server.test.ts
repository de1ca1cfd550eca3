// The harness itself: a real redis-server starts, answers, stops by PID and comes back empty.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, skipWithoutRedis, startRedisServer } from './redis-server.js';
import { spawnNode } from './spawn.js';

const skip = skipWithoutRedis('test/helpers/redis-server.test.ts');

describe.skipIf(skip)('the test Redis harness', { timeout: 60_000 }, () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves on 127.0.0.1, stops by PID and restarts empty on the same port', async () => {
    const redis = await createClient({ url: server.url }).connect();
    await redis.set('k', 'v');
    expect(await redis.get('k')).toBe('v');
    redis.destroy();
    const pid = server.pid;
    expect(pid).toBeGreaterThan(0);
    await server.stop();
    expect(() => process.kill(pid as number, 0)).toThrow();
    await server.start();
    const again = await createClient({ url: server.url }).connect();
    expect(await again.get('k')).toBeNull();
    again.destroy();
  });

  it('dies with the process that started it, when that process is killed outright', async () => {
    const owner = spawnNode(fileURLToPath(new URL('./redis-server-owner.ts', import.meta.url)), []);
    while (!owner.output().stdout.includes('\n')) await once(owner.child.stdout!, 'data');
    const pid = Number(owner.output().stdout.trim());
    expect(() => process.kill(pid, 0)).not.toThrow();
    owner.child.kill('SIGKILL');
    await owner.exited;
    // The kernel kills the server as its parent dies; a poll rather than a timed wait, so that a
    // loaded machine can only make it slower. Left running, the test's time limit says so.
    while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isRunning(pid)).toBe(false);
  });
});

/** Whether `pid` names a live process (not a zombie awaiting its parent's wait). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
