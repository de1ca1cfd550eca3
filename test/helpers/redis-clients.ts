// The two Redis clients the shared quota supports, connected the way a user would, for suites that
// run once over each (describe.each(redisClients)).
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisClientLike } from '../../src/redis/adapter.js';
import { type RedisServer, startRedisServer } from './redis-server.js';

export interface ConnectedRedis {
  readonly client: RedisClientLike;
  /** Raw commands for the test's own checks (SCAN, PTTL, ZRANGE…). */
  command(args: string[]): Promise<unknown>;
  /** The names of the keys that match `pattern`. */
  keys(pattern: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface RedisClientKind {
  readonly name: 'node-redis' | 'ioredis';
  connect(url: string): Promise<ConnectedRedis>;
}

export const redisClients: readonly RedisClientKind[] = [
  {
    name: 'node-redis',
    async connect(url) {
      // Reconnects quickly once the server is back; errors while it is down are the test's to see.
      const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
      client.on('error', () => {});
      await client.connect();
      return {
        client,
        command: (args) => client.sendCommand(args),
        keys: (pattern) => client.keys(pattern),
        async close() {
          client.destroy();
        },
      };
    },
  },
  {
    name: 'ioredis',
    async connect(url) {
      const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: null });
      client.on('error', () => {});
      await new Promise<void>((resolve, reject) => {
        client.once('ready', resolve);
        client.once('error', reject);
      });
      return {
        client,
        command: ([name, ...args]) => client.call(name as string, ...args),
        keys: (pattern) => client.keys(pattern),
        async close() {
          client.disconnect();
        },
      };
    },
  },
];

/** A redis-server of the suite's own and a connection to it. */
export interface RedisOne {
  server: RedisServer;
  redis: ConnectedRedis;
}

/** A redis-server of the suite's own and two connections to it, as two processes would hold them. */
export interface RedisPair extends RedisOne {
  other: ConnectedRedis;
}

/** Starts a {@link RedisOne} before the suite's tests and stops it after them. */
export function useRedis(kind: RedisClientKind): RedisOne {
  return useRedisServer(kind, false);
}

/** Starts a {@link RedisPair} before the suite's tests and stops it after them. */
export function useRedisPair(kind: RedisClientKind): RedisPair {
  return useRedisServer(kind, true) as RedisPair;
}

/** A redis-server and its connections, closed before the server whatever order after-hooks run in. */
function useRedisServer(kind: RedisClientKind, withOther: boolean): RedisOne & Partial<RedisPair> {
  const started = {} as RedisOne & Partial<RedisPair>;
  beforeAll(async () => {
    started.server = await startRedisServer();
    started.redis = await kind.connect(started.server.url);
    if (withOther) started.other = await kind.connect(started.server.url);
  });
  afterAll(async () => {
    await started.redis?.close();
    await started.other?.close();
    await started.server?.close();
  });
  return started;
}
