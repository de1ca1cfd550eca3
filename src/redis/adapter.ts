import { createHash } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';

/**
 * The part of a node-redis (v4+) client the quota calls: `evalSha` and `eval` with `{ keys, arguments }`.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on('error', () => {}); // without a listener, a Redis restart ends the process
 * const redis: NodeRedisLike = await client.connect();
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
 * const client = new Redis(process.env.REDIS_URL);
 * client.on('error', () => {}); // each dropped connection is an 'error' event
 * const redis: IORedisLike = client;
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
 * const redis = createClient({ url: process.env.REDIS_URL }).on('error', () => {}); // see createRedisQuota
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

/** Runs a script by its SHA-1, and sends it whole only when Redis does not have it (NOSCRIPT). */
export type ScriptRunner = (script: Script, keys: string[], args: string[]) => Promise<unknown>;

/**
 * Adapts either client, told apart by shape (method names), never by `instanceof`: the user's copy
 * of the library need not be ours, and neither library is imported here.
 */
export function scriptRunner(redis: unknown): ScriptRunner {
  const client = redis as Partial<NodeRedisLike & IORedisLike> | null;
  if (client !== null && typeof client === 'object' && typeof client.evalsha === 'function') {
    const io = client as IORedisLike;
    return withFallback(
      (s, keys, args) => io.evalsha(s.sha, keys.length, ...keys, ...args),
      (s, keys, args) => io.eval(s.source, keys.length, ...keys, ...args),
    );
  }
  if (client !== null && typeof client === 'object' && typeof client.evalSha === 'function') {
    const node = client as NodeRedisLike;
    return withFallback(
      (s, keys, args) => node.evalSha(s.sha, { keys, arguments: args }),
      (s, keys, args) => node.eval(s.source, { keys, arguments: args }),
    );
  }
  throw new ConfigurationError(
    'redis',
    '`redis` must be a connected node-redis (v4+) client (createClient().connect()) or an ioredis (v5+) client',
  );
}

/**
 * The first call of each script sends it whole, which loads it into Redis's cache; later calls send
 * its SHA-1 alone. Sending the SHA-1 first would turn a fire-and-forget call (a release, a block)
 * into two round trips the first time, the second of which a client closing meanwhile never sends.
 */
function withFallback(bySha: ScriptRunner, whole: ScriptRunner): ScriptRunner {
  const loaded = new Set<string>();
  return async (s, keys, args) => {
    if (!loaded.has(s.sha)) {
      const reply = await whole(s, keys, args);
      loaded.add(s.sha);
      return reply;
    }
    try {
      return await bySha(s, keys, args);
    } catch (error) {
      // A restarted or flushed Redis has lost its script cache: EVAL loads the script again.
      if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
      return whole(s, keys, args);
    }
  };
}
