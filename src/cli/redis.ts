/**
 * `--redis <url>` (or `--redis-cluster <url,url…>`): the command's requests count in a quota shared
 * through Redis with every other run, worker and program on the same key (`scholarly-metrics/redis`). node-redis is an optional peer of
 * the package: it is imported only when a Redis URL is given, and a one-shot command connects with a
 * bounded timeout, gives up reconnecting after a few tries, and closes the connection when it ends.
 *
 * The URL may hold a password: it is shown only with the password masked, and every line the command
 * writes to stderr passes through the run's `Secrets`.
 */
import type { SharedQuota } from '../index.js';
import type { RedisClientLike, RedisSharedQuota } from '../redis/index.js';
import { UsageError } from './errors.js';
import { maskedUrl, type Secrets } from './secrets.js';

/** The environment variable read when `--redis` is not given: a URL with a password stays out of `ps`. */
export const redisUrlVariable = 'METRIC_REDIS_URL';

/** How long connecting may take, all told (TCP, TLS, the handshake, the retries), before the command gives up on Redis. */
const connectTimeoutMs = 5_000;
/** Reconnections tried after a dropped connection (or a refused first one) before Redis counts as gone. */
const reconnectTries = 3;
/** How long closing may wait for Redis to answer what is pending before the socket is dropped. */
const closeTimeoutMs = 2_000;

/** The global options that shape the shared quota. */
export interface RedisOptions {
  redis?: string;
  /** Comma-separated URLs of some of a Redis Cluster's nodes (node-redis finds the rest). */
  redisCluster?: string;
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

/** A node-redis client as the quota takes it (the one with `evalSha`). */
type NodeRedisLike = Extract<RedisClientLike, { evalSha: unknown }>;

/** The part of a node-redis client this file uses. */
interface NodeRedisClient extends NodeRedisLike {
  readonly isOpen: boolean;
  /** A single client's; a cluster has none (`isOpen` then says it). */
  readonly isReady?: boolean;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
  /** node-redis 5+; 4 has `quit()` alone. */
  close?(): Promise<void>;
  quit(): Promise<unknown>;
  destroy(): void;
}

interface SocketOptions {
  connectTimeout: number;
  reconnectStrategy: (retries: number, cause: Error) => number | Error;
  tls?: boolean;
}

interface NodeRedisModule {
  createClient(options: { url: string; socket: SocketOptions }): NodeRedisClient;
  createCluster(options: {
    rootNodes: { url: string }[];
    defaults: { socket: SocketOptions; username?: string; password?: string };
  }): NodeRedisClient;
}

/** Where the run's Redis is: one server, or a cluster given by some of its nodes. */
export interface RedisTarget {
  readonly urls: readonly string[];
  readonly cluster: boolean;
  /** Where the URLs came from, as messages name it: `--redis`, `--redis-cluster` or METRIC_REDIS_URL. */
  readonly from: string;
}

/**
 * The Redis of the run: `--redis-cluster`, else `--redis`, else `METRIC_REDIS_URL`, else none. The two
 * flags exclude each other; `--redis-cluster` takes at least one URL, separated by commas.
 */
export function redisTargetOf(
  options: RedisOptions,
  env: Readonly<Record<string, string | undefined>>,
): RedisTarget | undefined {
  if (options.redisCluster !== undefined) {
    if (options.redis !== undefined)
      throw new UsageError('--redis and --redis-cluster exclude each other: give one');
    const urls = options.redisCluster.split(',').map((url) => url.trim());
    if (urls.some((url) => url === '')) {
      throw new UsageError(
        '--redis-cluster expects one or more redis:// URLs separated by commas, e.g. ' +
          'redis://10.0.0.1:6379,redis://10.0.0.2:6379',
      );
    }
    return { urls, cluster: true, from: '--redis-cluster' };
  }
  const url = options.redis ?? (env[redisUrlVariable] || undefined);
  const flag =
    (options.redisPrefix !== undefined && '--redis-prefix') ||
    (options.redisMaxConcurrency !== undefined && '--redis-max-concurrency');
  if (url === undefined && flag)
    throw new UsageError(`${flag} needs --redis <url> or --redis-cluster <urls> (or ${redisUrlVariable})`);
  if (url === undefined) return undefined;
  return { urls: [url], cluster: false, from: options.redis === undefined ? redisUrlVariable : '--redis' };
}

/**
 * A `redis://` or `rediss://` URL with a host. Its credentials are added to `secrets` before anything
 * can be said about it, and never part of a message.
 */
export function parseRedisUrl(raw: string, secrets: Secrets, flag = '--redis'): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
    remember(url, secrets);
  } catch {
    // Not even a URL: any part of it could be the password, so the message quotes none of it.
  }
  if (url === undefined || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new UsageError(
      `${flag} expects a redis:// or rediss:// URL, e.g. redis://localhost:6379 (got ${url === undefined ? 'no URL at all' : maskedUrl(url)})`,
    );
  }
  if (!decodable(url.username) || !decodable(url.password)) {
    // node-redis decodes them, and a `%` not followed by two hex digits makes it throw a URIError.
    throw new UsageError(
      `${flag}: the URL's user or password holds a % that is no escape: write a % as %25 (${maskedUrl(url)})`,
    );
  }
  return url;
}

/** Whether `text` is valid percent-encoding. */
function decodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

function remember(url: URL, secrets: Secrets): void {
  secrets.add(url.password);
  if (url.password === '') secrets.add(url.username);
}

/** What the connection of a run needs besides its options. */
export interface RedisConnection {
  /** The run's secrets: the URL's credentials join them. */
  readonly secrets: Secrets;
  /** Ctrl-C: the connection is dropped and its reason (an InterruptedError) thrown. */
  readonly signal: AbortSignal;
  /** Imports node-redis (tests replace it). */
  readonly load?: () => Promise<unknown>;
}

/**
 * Connects to the Redis of `target` and makes the quota on it. node-redis missing: a usage error that
 * says how to install it. Redis unreachable, or connected but silent (TCP, TLS and the handshake each
 * count): `QuotaUnavailableError` within `connectTimeoutMs` all told.
 */
export async function openRedisQuota(
  target: RedisTarget,
  options: RedisOptions,
  { secrets, signal, load = () => import('redis') }: RedisConnection,
): Promise<CommandQuota> {
  const urls = target.urls.map((raw) => parseRedisUrl(raw, secrets, target.from));
  let redis: NodeRedisModule;
  try {
    redis = (await load()) as NodeRedisModule;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new UsageError(`${target.from} needs the node-redis package: npm install redis`);
  }
  const { createRedisQuota } = await import('../redis/index.js');
  const client = target.cluster
    ? newCluster(redis, urls)
    : redis.createClient({ url: urls[0]!.href, socket: socket() });
  // Each failure reaches the command as the quota's QuotaUnavailableError; the events say it again.
  client.on('error', () => {});
  await connect(client, urls, secrets, signal);
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

/** How each connection is made: bounded, and given up after a few tries. A fresh object each time: node-redis writes into it. */
const socket = (): SocketOptions => ({
  connectTimeout: connectTimeoutMs,
  // node-redis retries for ever by default: a one-shot command gives up and says why instead
  // (an Error, not `false`, which node-redis 4 does not know).
  reconnectStrategy: (retries, cause) => (retries < reconnectTries ? 100 * 2 ** retries : cause),
});

/**
 * A node-redis cluster client over `urls`, the nodes it starts from. The nodes it finds are connected
 * to with `defaults`: the first URL's credentials and TLS, as a cluster's nodes share them.
 */
function newCluster(redis: NodeRedisModule, urls: URL[]): NodeRedisClient {
  const [first] = urls as [URL, ...URL[]];
  const credentials = {
    ...(first.username !== '' && { username: decodeURIComponent(first.username) }),
    ...(first.password !== '' && { password: decodeURIComponent(first.password) }),
  };
  return redis.createCluster({
    rootNodes: urls.map((url) => ({ url: url.href })),
    defaults: { socket: { ...socket(), ...(first.protocol === 'rediss:' && { tls: true }) }, ...credentials },
  });
}

/**
 * Connects `client`, within the bound and Ctrl-C. node-redis bounds each TCP connection, not a TLS
 * handshake or a server that accepts and never answers: the bound covers them all.
 */
async function connect(client: NodeRedisClient, urls: URL[], secrets: Secrets, signal: AbortSignal) {
  try {
    await within(client.connect(), connectTimeoutMs, signal);
  } catch (error) {
    destroy(client);
    const timedOut = error instanceof TimedOut;
    if (signal.aborted && !timedOut) throw signal.reason;
    const { QuotaUnavailableError } = await import('./sdk.js');
    const reason = timedOut
      ? `no answer within ${connectTimeoutMs / 1000} s`
      : secrets.redact(error instanceof Error ? error.message : String(error)) ||
        (error instanceof Error ? error.name : 'no reason given');
    const where = urls.map(maskedUrl).join(', ');
    throw new QuotaUnavailableError(`cannot connect to Redis at ${where} (${reason}); nothing was sent`, {
      cause: error,
    });
  }
}

async function closeClient(client: NodeRedisClient, quota: RedisSharedQuota | undefined): Promise<void> {
  // The ends of the last attempts reach Redis, so that other runs do not wait for this one's leases
  // to run out; a Redis that fails here changes nothing for the command, one reconnecting is not waited for.
  // A request still out after Ctrl-C (a one-record command does not stop for it) is not waited for
  // either: quota.close() would wait for it up to its lease; its place is freed when the lease ends.
  const ready = client.isReady ?? client.isOpen;
  if (ready && quota !== undefined) await within(quota.close(), closeTimeoutMs).catch(() => {});
  if (!client.isOpen) return;
  // Reconnecting: nothing pending will be answered, and a graceful close would wait for it.
  if (!ready) return destroy(client);
  const closing = client.close ? client.close() : client.quit();
  const inTime = await within(closing, closeTimeoutMs).then(
    () => true,
    (error: unknown) => !(error instanceof TimedOut),
  );
  if (!inTime) destroy(client);
}

/** What {@link within} rejects with when the time runs out first. */
class TimedOut extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Settles as `work` does, unless `ms` pass first (a {@link TimedOut}) or `signal` aborts (its
 * reason). The timer holds the process: were it unref'd, a close left waiting would let Node exit
 * with 0 before the command's exit code is set.
 */
function within<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // The first outcome wins; `work` is always followed, so that its late failure is never unhandled.
    const settle = (then: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      then();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    const timer = setTimeout(() => settle(() => reject(new TimedOut(`no answer within ${ms} ms`))), ms);
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function destroy(client: NodeRedisClient): void {
  try {
    client.destroy();
  } catch {
    // Closed meanwhile.
  }
}
