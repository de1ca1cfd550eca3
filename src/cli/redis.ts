/**
 * `--redis <url>`: the command's requests count in a quota shared through Redis with every other run,
 * worker and program on the same key (`scholarly-metrics/redis`). node-redis is an optional peer of
 * the package: it is imported only when a Redis URL is given, and a one-shot command connects with a
 * bounded timeout, gives up reconnecting after a few tries, and closes the connection when it ends.
 *
 * The URL may hold a password: it is shown only with the password masked, and every line the command
 * writes to stderr passes through `redact`.
 */
import { Deadline } from '../core/abort.js';
import { QuotaUnavailableError } from '../core/errors.js';
import type { SharedQuota } from '../core/quota-types.js';
import type { NodeRedisLike } from '../redis/adapter.js';
import type { RedisSharedQuota } from '../redis/index.js';
import { UsageError } from './errors.js';

/** The environment variable read when `--redis` is not given: a URL with a password stays out of `ps`. */
export const redisUrlVariable = 'METRIC_REDIS_URL';

/** How long a connection may take before the command gives up on Redis. */
const connectTimeoutMs = 5_000;
/** Reconnections tried after a dropped connection (or a refused first one) before Redis counts as gone. */
const reconnectTries = 3;
/** How long closing may wait for Redis to answer what is pending before the socket is dropped. */
const closeTimeoutMs = 2_000;

/** The global options that shape the shared quota. */
export interface RedisOptions {
  redis?: string;
  redisPrefix?: string;
  redisMaxConcurrency?: number;
  maxRequestsPerMinute?: number;
}

/** The shared quota of a run and the connection under it. */
export interface CommandQuota {
  readonly quota: SharedQuota;
  /** Lets the quota send its last ends (`quota.close()`), then closes the connection; never throws or hangs. */
  close(): Promise<void>;
}

/** The part of a node-redis client this file uses. */
interface NodeRedisClient extends NodeRedisLike {
  readonly isOpen: boolean;
  readonly isReady: boolean;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
  /** node-redis 5+; 4 has `quit()` alone. */
  close?(): Promise<void>;
  quit(): Promise<unknown>;
  destroy(): void;
}

interface NodeRedisModule {
  createClient(options: {
    url: string;
    socket: { connectTimeout: number; reconnectStrategy: (retries: number, cause: Error) => number | Error };
  }): NodeRedisClient;
}

/** Passwords of the URLs given, masked in every line written to stderr. */
const secrets = new Set<string>();

/** `text` with every password of a Redis URL given to this run masked. */
export function redact(text: string): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

/** The Redis URL of the run: `--redis`, else `METRIC_REDIS_URL`, else none. */
export function redisUrlOf(options: RedisOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = options.redis ?? (env[redisUrlVariable] || undefined);
  const flag =
    (options.redisPrefix !== undefined && '--redis-prefix') ||
    (options.redisMaxConcurrency !== undefined && '--redis-max-concurrency');
  if (url === undefined && flag) throw new UsageError(`${flag} needs --redis <url> (or ${redisUrlVariable})`);
  return url;
}

/**
 * A `redis://` or `rediss://` URL with a host. Its password is remembered for `redact` before anything
 * can be said about it, and never part of a message.
 */
export function parseRedisUrl(raw: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
    remember(url);
  } catch {
    // Not even a URL: any part of it could be the password, so the message quotes none of it.
  }
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new UsageError(
      `--redis expects a redis:// or rediss:// URL, e.g. redis://localhost:6379 (got ${url === undefined ? 'no URL at all' : maskedUrl(url)})`,
    );
  }
  return url;
}

/** The URL with its password (if any) masked: `redis://user:***@host:6379`. */
export function maskedUrl(url: URL): string {
  if (url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.password = '***';
  return copy.href;
}

function remember(url: URL): void {
  if (url.password === '') return;
  secrets.add(url.password);
  try {
    secrets.add(decodeURIComponent(url.password));
  } catch {
    // A malformed escape: the raw form is masked already.
  }
}

/**
 * Connects to the Redis at `raw` and makes the quota on it. node-redis missing: a usage error that says
 * how to install it. Redis unreachable: `QuotaUnavailableError`, after a bounded number of tries.
 */
export async function openRedisQuota(
  raw: string,
  options: RedisOptions,
  load: () => Promise<unknown> = () => import('redis'),
): Promise<CommandQuota> {
  const url = parseRedisUrl(raw);
  let redis: NodeRedisModule;
  try {
    redis = (await load()) as NodeRedisModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new UsageError('--redis needs the node-redis package: npm install redis');
  }
  const { createRedisQuota } = await import('../redis/index.js');
  const client = redis.createClient({
    url: url.href,
    socket: {
      connectTimeout: connectTimeoutMs,
      // node-redis retries for ever by default: a one-shot command gives up and says why instead
      // (an Error, not `false`, which node-redis 4 does not know).
      reconnectStrategy: (retries, cause) => (retries < reconnectTries ? 100 * 2 ** retries : cause),
    },
  });
  // Each failure reaches the command as the quota's QuotaUnavailableError; the events say it again.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const reason = redact(error instanceof Error ? error.message : String(error));
    throw new QuotaUnavailableError(
      `cannot connect to Redis at ${maskedUrl(url)} (${reason || 'no reason given'}); nothing was sent`,
      { cause: error },
    );
  }
  try {
    const quota = createRedisQuota({
      redis: client,
      maxRequestsPerMinute: options.maxRequestsPerMinute,
      maxConcurrency: options.redisMaxConcurrency,
      ...(options.redisPrefix !== undefined && { prefix: options.redisPrefix }),
    });
    return { quota, close: () => closeClient(client, quota) };
  } catch (error) {
    await closeClient(client, undefined);
    throw error;
  }
}

async function closeClient(client: NodeRedisClient, quota: RedisSharedQuota | undefined): Promise<void> {
  // The ends of the last attempts reach Redis, so that other runs do not wait for this one's leases
  // to run out; a Redis that fails here changes nothing for the command, one reconnecting is not waited for.
  if (client.isReady) await quota?.close().catch(() => {});
  if (!client.isOpen) return;
  // Reconnecting: nothing pending will be answered, and a graceful close would wait for it.
  if (!client.isReady) return destroy(client);
  // The deadline's timer holds the process: were it unref'd, a close left waiting would let Node exit
  // with 0 before the command's exit code is set.
  const deadline = new Deadline(closeTimeoutMs, undefined);
  const closing = client.close ? client.close() : client.quit();
  const inTime = await deadline.race(closing).then(
    () => true,
    () => !deadline.timedOut,
  );
  deadline.clear();
  if (!inTime) destroy(client);
}

function destroy(client: NodeRedisClient): void {
  try {
    client.destroy();
  } catch {
    // Closed meanwhile.
  }
}
