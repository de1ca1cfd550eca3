import { createHash } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';

/**
 * The part of a node-redis (v4+) client the quota calls: `evalSha` and `eval` with `{ keys, arguments }`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' });
 * client.on('error', () => {}); // without a listener, a Redis restart ends the process
 * const redis: RedisClientLike = await client.connect(); // its node-redis form
 * ```
 */
export interface NodeRedisLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/**
 * The part of an ioredis (v5+) client the quota calls: `evalsha` and `eval` with a key count.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const client = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
 * client.on('error', () => {}); // each dropped connection is an 'error' event
 * const redis: RedisClientLike = client; // its ioredis form
 * ```
 */
export interface IORedisLike {
  evalsha(sha: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/**
 * A connected node-redis or ioredis client. The SDK never connects, quits or closes it.
 *
 * @example
 * ```ts
 * const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' });
 * redis.on('error', () => {}); // see createRedisQuota
 * await redis.connect();
 * createRedisQuota({ redis, maxConcurrency: 8 });
 * ```
 */
export type RedisClientLike = NodeRedisLike | IORedisLike;

/** A Lua script and its SHA-1, under which Redis caches it. */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Sends scripts through the user's client: by SHA-1 (`EVALSHA`) or whole (`EVAL`, which loads the
 * script into Redis's cache). `loaded` holds the SHA-1s sent whole through it so far;
 * runThroughTransients chooses between the two.
 */
export interface ScriptRunner {
  bySha(script: Script, keys: string[], args: string[]): Promise<unknown>;
  whole(script: Script, keys: string[], args: string[]): Promise<unknown>;
  readonly loaded: Set<string>;
}

/**
 * Adapts either client, told apart by shape (method names), never by `instanceof`: the user's copy
 * of the library need not be ours, and neither library is imported here.
 */
export function scriptRunner(redis: unknown): ScriptRunner {
  const client = redis as Partial<NodeRedisLike & IORedisLike> | null;
  const loaded = new Set<string>();
  if (client !== null && typeof client === 'object' && typeof client.evalsha === 'function') {
    const io = client as IORedisLike;
    return {
      bySha: (s, keys, args) => io.evalsha(s.sha, keys.length, ...keys, ...args),
      whole: (s, keys, args) => io.eval(s.source, keys.length, ...keys, ...args),
      loaded,
    };
  }
  if (client !== null && typeof client === 'object' && typeof client.evalSha === 'function') {
    const node = client as NodeRedisLike;
    return {
      bySha: (s, keys, args) => node.evalSha(s.sha, { keys, arguments: args }),
      whole: (s, keys, args) => node.eval(s.source, { keys, arguments: args }),
      loaded,
    };
  }
  throw new ConfigurationError(
    'redis',
    '`redis` must be a connected node-redis (v4+) client (createClient().connect()) or an ioredis (v5+) client',
  );
}
