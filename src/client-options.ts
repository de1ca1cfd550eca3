import type { CacheOptions } from './cache/options.js';
import type { HeadersInput } from './core/headers.js';
import type { ClientHooks } from './core/hook-types.js';
import type { Logger, LogLevel } from './core/logger.js';
import type { SharedQuota } from './core/quota-types.js';
import type { TelemetryOptions } from './core/telemetry-types.js';

/*
 * The options of `new MetricClient()`, above core: the `cache` option's keys are the API table's
 * method names. src/resolve-options.ts checks them.
 */

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
    | {
        quota?: SharedQuota | undefined;
        maxConcurrency?: undefined;
        maxRequestsPerMinute?: undefined;
        pacing?: undefined;
      }
  );

/**
 * Every option of `new MetricClient(options)`, documented; {@link ClientOptions} adds that `quota`
 * excludes the client's own limits. Type your options as `ClientOptions`: an object of this type
 * alone is not taken by the constructor, as it may hold both.
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
   * @default `METRIC_API_KEY` of {@link ClientOptionsBase.env}
   */
  apiKey?: string | null | undefined;
  /**
   * Where `METRIC_API_KEY`, `METRIC_BASE_URL` and `METRIC_LOG` are read for the options left out
   * (`apiKey`, `baseUrl`, `logLevel`): a program that keeps its settings elsewhere, a command line or
   * a test hands its own; `{}` reads none. An empty variable counts as unset. Given, it is the only
   * place read: where a message says to set a variable, it means in `env`.
   *
   * @example
   * ```ts
   * const client = new MetricClient({ env: { METRIC_API_KEY: key, METRIC_BASE_URL: url } });
   * ```
   * @default process.env (none where there is no process, as in a browser)
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The full base URL, ending in `/api/v1` (a trailing slash is fine).
   * @default `METRIC_BASE_URL` of {@link ClientOptionsBase.env}
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
   * How `maxRequestsPerMinute` spreads starts. `'burst'`: a request starts as soon as the window has
   * room. `'even'`: starts are at least 60 s ÷ `maxRequestsPerMinute` apart. A shared `quota` takes
   * its own `pacing` instead.
   * @default 'burst'
   * @example
   * ```ts
   * new MetricClient({ apiKey, maxRequestsPerMinute: 20, pacing: 'even' }); // a start every 3 s
   * ```
   */
  pacing?: 'burst' | 'even' | undefined;
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
   * How much the client logs: `'off'`, `'error'`, `'warn'`, `'info'` or `'debug'`. Headers that
   * carry credentials (Authorization, Cookie, X-Api-Key…) are always redacted.
   * @default `METRIC_LOG` of {@link ClientOptionsBase.env}, else 'off'
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
   * drops the answers it makes wrong. Answers are shared only between calls carrying the same
   * credentials (the API key and every header of the client and the call); a hook that sets
   * credentials is invisible to the cache. See docs/cache.md.
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
