// The harness itself: a real redis-server starts, answers, stops by PID and comes back empty.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, skipWithoutRedis, startRedisServer } from './redis-server.js';

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
});
