/**
 * The one small interface every quota implements: the client's own (src/core/quota.ts) and the one
 * shared through Redis (`scholarly-metrics/redis`). The transport calls nothing else.
 */

/**
 * What a quota is told of each attempt it lets through.
 *
 * @example
 * ```ts
 * await quota.run(() => fetch(url), { signal: controller.signal, timeout: 30_000 });
 * ```
 */
export interface QuotaAttempt {
  /** The caller's signal: a wait for a place ends at once when it aborts, and holds no place. */
  readonly signal: AbortSignal | undefined;
  /**
   * The attempt's `timeout` in ms. A quota that asks a server (Redis) for a place answers within it,
   * and a place it hands out is a lease that outlives a crashed holder by no more than this plus a
   * few seconds.
   */
  readonly timeout: number;
}

/**
 * The limiter of the requests sent as one API key to one base URL.
 *
 * @example
 * ```ts
 * const perKey: RequestQuota = createRedisQuota({ redis, maxConcurrency: 4 }).forClient({ baseUrl, apiKey });
 * const body = await perKey.run(() => fetch(url).then((r) => r.text()), { signal: undefined, timeout: 30_000 });
 * ```
 */
export interface RequestQuota {
  /**
   * Runs `send` once a place is free, and gives the place back when `send` settles. Rejects without
   * calling `send` when the signal aborts first, when a limit that will not clear soon is spent
   * (`RateLimitError`), or when the quota cannot tell (`QuotaUnavailableError`).
   */
  run<T>(send: () => Promise<T>, attempt?: QuotaAttempt): Promise<T>;
  /** Holds every request for `ms`: a 429 that is being retried would meet the others too. */
  pause(ms: number): void;
  /**
   * Refuses every request for `ms` with `RateLimitError`, without sending it: a 429 that will not be
   * retried (a `Retry-After` over 60 s, the daily limit) would meet every other request as well.
   */
  block(ms: number): void;
}

/**
 * Whom a client sends as: a shared quota counts each base URL and API key apart.
 *
 * @example
 * ```ts
 * quota.forClient({ baseUrl: 'https://api.example.com/api/v1', apiKey: process.env.METRIC_API_KEY ?? null });
 * ```
 */
export interface QuotaIdentity {
  readonly baseUrl: string;
  /** `null` when a proxy adds the key. A shared quota never stores it, only a hash of it. */
  readonly apiKey: string | null;
}

/**
 * A quota shared by several clients, in this process or others: `new MetricClient({ quota })`.
 * `createRedisQuota()` from `scholarly-metrics/redis` makes one.
 *
 * @example
 * ```ts
 * const quota: SharedQuota = createRedisQuota({ redis, maxRequestsPerMinute: 600 });
 * const client = new MetricClient({ apiKey, baseUrl, quota });
 * ```
 */
export interface SharedQuota {
  /** The quota of every client that sends as `identity`. */
  forClient(identity: QuotaIdentity): RequestQuota;
}
