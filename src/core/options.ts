import type { CacheOptions } from '../cache/options.js';
import { InvalidParameterError, MetricError } from './errors.js';
import type { HeadersInput } from './headers.js';
import { type ClientHooks, checkHooks } from './hooks.js';
import { isLogLevel, type Logger, type LogLevel, logLevels } from './logger.js';
import type { SharedQuota } from './quota-types.js';
import type { TelemetryOptions } from './telemetry-types.js';

/**
 * Options of `new MetricClient(options)`: {@link ClientOptionsBase}, with `quota` or the client's own
 * limits (`maxConcurrency`, `maxRequestsPerMinute`) but not both, which the constructor refuses.
 *
 * @example
 * ```ts
 * import { type ClientOptions, MetricClient } from 'scholarly-metrics';
 * import { createRedisQuota } from 'scholarly-metrics/redis';
 *
 * const own: ClientOptions = { apiKey, baseUrl, maxConcurrency: 4 };
 * const shared: ClientOptions = { apiKey, baseUrl, quota: createRedisQuota({ redis, maxConcurrency: 4 }) };
 * ```
 */
export type ClientOptions = ClientOptionsBase &
  (
    | { quota?: undefined }
    | { quota?: SharedQuota | undefined; maxConcurrency?: undefined; maxRequestsPerMinute?: undefined }
  );

/**
 * Every option of `new MetricClient(options)`; {@link ClientOptions} adds that `quota` excludes the
 * client's own limits.
 *
 * @example
 * ```ts
 * import { type ClientOptions, MetricClient } from 'scholarly-metrics';
 *
 * const options: ClientOptions = {
 *   apiKey: process.env.METRIC_API_KEY,
 *   baseUrl: 'https://your-host.example/api/v1',
 *   timeout: 10_000,
 *   maxRetries: 4,
 * };
 * const client = new MetricClient(options);
 * ```
 */
export interface ClientOptionsBase {
  /**
   * The API key, sent as `Authorization: Bearer <key>`. `null` sends no Authorization header, for a
   * proxy that adds it.
   * @default process.env.METRIC_API_KEY
   */
  apiKey?: string | null | undefined;
  /**
   * The full base URL, ending in `/api/v1` (a trailing slash is fine).
   * @default process.env.METRIC_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Milliseconds one attempt may take, reading the whole body included.
   * @default 30_000
   */
  timeout?: number | undefined;
  /**
   * How many times a failed request is retried (connection failures, timeouts, 500/502/503/504, and
   * 429 with a `Retry-After` of at most 60 s).
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The `fetch` to send requests with.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Extra headers sent with every request.
   * @default {}
   */
  headers?: HeadersInput | undefined;
  /**
   * How many requests of this client may be in flight at once; the others wait their turn, in order.
   * @default no limit
   */
  maxConcurrency?: number | undefined;
  /**
   * How many requests of this client may start in any 60 s (a sliding window); the others wait.
   * @default no limit
   */
  maxRequestsPerMinute?: number | undefined;
  /**
   * A quota shared with every client on the same key, in any process: `createRedisQuota()` from
   * `scholarly-metrics/redis`. It takes the place of `maxConcurrency` and `maxRequestsPerMinute`,
   * which may not be set with it.
   * @default none: the client's own limits apply
   */
  quota?: SharedQuota | undefined;
  /**
   * ky's `beforeRequest` and `afterResponse` hooks, run on every attempt (a retried request runs
   * them again). See {@link ClientHooks} for what a hook may change.
   * @default {}
   */
  hooks?: ClientHooks | undefined;
  /**
   * In a browser an API key is visible to anyone who opens the page, so the client refuses one unless
   * this is `true`. `apiKey: null` (a proxy adds the key) needs no opt-in.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * How much the client logs: `'off'`, `'error'`, `'warn'`, `'info'` or `'debug'`. The Authorization
   * header is always redacted.
   * @default process.env.METRIC_LOG, else 'off'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where log lines go.
   * @default globalThis.console
   */
  logger?: Logger | undefined;
  /**
   * Keep answers and serve them again until they expire: `true` keeps them in memory (bounded);
   * `{ store, ttl, staleIfError }` sets where (any Keyv instance) and for how long. A `score_updated`
   * event handed to `client.cache.apply` (or to a webhook receiver given `cache: client.cache`)
   * drops the answers it makes wrong. See docs/cache.md.
   * @default no cache
   */
  cache?: boolean | CacheOptions | undefined;
  /**
   * The most bytes of a response body the client reads (after any `Content-Encoding` is undone), error
   * bodies included. A larger one rejects with `ResponseTooLargeError`, is cancelled and is not retried.
   * The default is far above the largest page the API serves, yet bounded so that an endless or
   * decompression-bomb body costs memory near the limit and nothing more. It bounds what the SDK reads:
   * a response taken with `.asResponse()` is handed over unread. At most `0x1fffffe8` (V8's longest
   * string).
   * @default 33_554_432 (32 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Your OpenTelemetry providers (`{ tracerProvider, meterProvider }`, either or both): a span per
   * call and the client's metrics. See docs/observability.md.
   * @default no telemetry
   */
  telemetry?: TelemetryOptions | undefined;
}

/**
 * Options every method takes as its last argument.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const journal = await client.journals.get(42, {
 *   signal: controller.signal,
 *   timeout: 5_000,
 *   maxRetries: 0, // an interactive caller would rather fail fast than wait out a backoff
 *   headers: { 'x-request-id': crypto.randomUUID() },
 * });
 * ```
 */
export interface RequestOptions {
  /** Cancels the request, its retries and their backoff sleeps. */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds one attempt may take, reading the whole body included.
   * @default the client's `timeout`
   */
  timeout?: number | undefined;
  /**
   * Retries for this request.
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /** Extra headers for this request. */
  headers?: HeadersInput | undefined;
  /**
   * With a client cache: `'refresh'` sends the request and keeps its answer in place of the kept
   * one; `false` sends it and neither reads nor writes the cache. Without a client cache, ignored.
   * @default read the cache, send on a miss
   */
  cache?: 'refresh' | false | undefined;
  /**
   * The most bytes of this response's body the client reads.
   * @default the client's `maxResponseBytes`
   */
  maxResponseBytes?: number | undefined;
}

export interface ResolvedClientOptions {
  apiKey: string | null;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  headers: Headers | undefined;
  hooks: ClientHooks | undefined;
  logLevel: LogLevel;
  logger: Logger | undefined;
  maxResponseBytes: number;
}

/** The largest delay `setTimeout` can hold. */
const maxTimeout = 2 ** 31 - 1;
const maxRetriesBound = 10;

/**
 * An environment variable, or `undefined` when it is unset, empty or unreadable: Deno without
 * `--allow-env` throws on any read, and a client given its options must still construct there.
 */
export function env(name: string): string | undefined {
  try {
    const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
    return process?.env?.[name] || undefined;
  } catch {
    return undefined;
  }
}

function isBrowser(): boolean {
  return typeof (globalThis as { document?: unknown }).document !== 'undefined';
}

export function resolveClientOptions(options: ClientOptions = {}): ResolvedClientOptions {
  if (options === null || typeof options !== 'object') {
    throw new MetricError('MetricClient options must be an object');
  }
  const apiKey = options.apiKey === undefined ? env('METRIC_API_KEY') : options.apiKey;
  if (apiKey === undefined || apiKey === '') {
    throw new MetricError(
      'Missing API key: pass `apiKey` to new MetricClient() or set METRIC_API_KEY ' +
        '(use apiKey: null when a proxy adds the Authorization header)',
    );
  }
  if (apiKey !== null && (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey))) {
    // The value is never echoed: it is a secret even when it is malformed.
    throw new MetricError('`apiKey` must be a string of visible ASCII characters with no spaces');
  }
  if (apiKey !== null && isBrowser() && options.dangerouslyAllowBrowser !== true) {
    throw new MetricError(
      'Refusing an API key in a browser: anyone who opens the page can read it. Route requests through ' +
        'your server and pass apiKey: null, or set dangerouslyAllowBrowser: true if you accept the risk',
    );
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new MetricError('No fetch available: pass `fetch` to new MetricClient()');
  }
  return {
    apiKey,
    baseUrl: resolveBaseUrl(options.baseUrl ?? env('METRIC_BASE_URL')),
    timeout: checkTimeout(options.timeout) ?? 30_000,
    maxRetries: checkMaxRetries(options.maxRetries) ?? 2,
    fetch: fetchImpl,
    headers: checkHeaders(options.headers),
    hooks: checkHooks(options.hooks),
    logLevel: resolveLogLevel(options.logLevel),
    logger: options.logger,
    maxResponseBytes: checkMaxResponseBytes(options.maxResponseBytes) ?? defaultMaxResponseBytes,
  };
}

function resolveLogLevel(value: LogLevel | undefined): LogLevel {
  const level = value ?? env('METRIC_LOG') ?? 'off';
  if (!isLogLevel(level)) {
    const source = value === undefined ? 'METRIC_LOG' : '`logLevel`';
    throw new MetricError(`${source} must be one of ${logLevels.join(', ')}`);
  }
  return level;
}

function resolveBaseUrl(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new MetricError(
      'Missing base URL: pass `baseUrl` (ending in /api/v1) to new MetricClient() or set METRIC_BASE_URL',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MetricError('`baseUrl` (or METRIC_BASE_URL) must be an absolute http(s) URL ending in /api/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MetricError('`baseUrl` (or METRIC_BASE_URL) must use http or https');
  }
  // `url.search` is '' for a bare `?`, which would still end up in every request URL.
  // Credentials in the URL would ride along on every request and into every message that names it.
  if (url.username !== '' || url.password !== '') {
    throw new MetricError(
      '`baseUrl` (or METRIC_BASE_URL) must not carry credentials (user:password@): pass the key as `apiKey`',
    );
  }
  if (/[?#]/.test(value)) {
    throw new MetricError('`baseUrl` (or METRIC_BASE_URL) must not carry a query or a fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/** Checks the per-request overrides; the client's own were checked at construction. */
export function checkRequestOptions(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new InvalidParameterError('options', 'request options must be an object');
  }
  checkTimeout(options.timeout);
  checkMaxRetries(options.maxRetries);
  checkMaxResponseBytes(options.maxResponseBytes);
  const { signal } = options;
  if (signal !== undefined && (signal === null || typeof signal.addEventListener !== 'function')) {
    throw new InvalidParameterError('signal', '`signal` must be an AbortSignal');
  }
  return options.headers === undefined ? options : { ...options, headers: checkHeaders(options.headers) };
}

/** Headers a `Headers` object accepts; anything else is refused here, before a request exists. */
function checkHeaders(value: HeadersInput | undefined): Headers | undefined {
  if (value === undefined) return undefined;
  try {
    if (value === null || typeof value !== 'object') throw new TypeError('not an object');
    return new Headers(value as HeadersInit);
  } catch {
    // The runtime's message quotes the offending value, which may be a credential: leave it out.
    throw new InvalidParameterError('headers', '`headers` must be valid HTTP header names and values');
  }
}

function checkTimeout(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0 && value <= maxTimeout)) {
    throw new InvalidParameterError(
      'timeout',
      `\`timeout\` must be a number of milliseconds in (0, ${maxTimeout}]`,
    );
  }
  return value;
}

function checkMaxRetries(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0 || value > maxRetriesBound) {
    throw new InvalidParameterError(
      'maxRetries',
      `\`maxRetries\` must be an integer from 0 to ${maxRetriesBound}`,
    );
  }
  return value;
}

/** 32 MiB: see `maxResponseBytes`. */
export const defaultMaxResponseBytes = 32 * 1024 * 1024;
/** V8's longest string: a body decoded as text (one UTF-16 unit per byte at most) always fits. */
const maxResponseBytesBound = 0x1fffffe8;

function checkMaxResponseBytes(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > maxResponseBytesBound) {
    throw new InvalidParameterError(
      'maxResponseBytes',
      `\`maxResponseBytes\` must be an integer from 1 to ${maxResponseBytesBound}`,
    );
  }
  return value;
}
