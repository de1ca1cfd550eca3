import { type ClientCache, clientCache, type MetricCache } from './cache/client-cache.js';
import { checkCacheOption } from './cache/options.js';
import { MetricError } from './core/errors.js';
import type { HeadersInput } from './core/headers.js';
import { mergeHooks } from './core/hooks.js';
import { type ClientOptions, type ResolvedClientOptions, resolveClientOptions } from './core/options.js';
import { Quota } from './core/quota.js';
import type { RequestQuota, SharedQuota } from './core/quota-types.js';
import { Transport } from './core/transport.js';
import { VERSION } from './core/user-agent.js';
import { Authors } from './resources/authors.js';
import { Countries } from './resources/countries.js';
import { Journals } from './resources/journals.js';
import { Papers } from './resources/papers.js';
import { Subjects } from './resources/subjects.js';
import { checkTelemetryOption, lazyClientTelemetry } from './telemetry/options.js';

/**
 * The client of the Scholarly Metrics REST API v1.
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 *
 * const client = new MetricClient(); // METRIC_API_KEY and METRIC_BASE_URL from the environment
 * const journals = await client.journals.list();
 * for await (const paper of client.papers.search({ q: 'graphene' })) console.log(paper.title);
 * ```
 */
export class MetricClient {
  /** Journals: list, profile, papers, score history. */
  readonly journals: Journals;
  /** Papers: search, lookup by DOI. */
  readonly papers: Papers;
  /** Authors: list, profile. */
  readonly authors: Authors;
  /** Subject areas. */
  readonly subjects: Subjects;
  /** Countries. */
  readonly countries: Countries;
  /** The cache, when the `cache` option was given (`undefined` otherwise): `apply(event)`, `clear()`. */
  readonly cache: MetricCache | undefined;

  readonly #options: ClientOptions;
  readonly #resolved: ResolvedClientOptions;
  readonly #quota: RequestQuota;

  /**
   * Throws a `MetricError` that names the option or variable to set when the key or base URL is
   * missing or malformed.
   */
  constructor(options?: ClientOptions) {
    // What a client made by withOptions takes over from its parent, handed under private keys.
    const {
      [inheritedQuota]: inherited,
      [inheritedCache]: keptCache,
      ...own
    } = (options ?? {}) as ClientOptions & Inherited;
    this.#options = own;
    this.#resolved = resolveClientOptions(own);
    const cacheOptions = checkCacheOption(own.cache);
    const cache = keptCache ?? (cacheOptions && clientCache(cacheOptions, this.#resolved));
    this.cache = cache;
    this.#quota = inherited ?? quotaFor(own, this.#resolved);
    const telemetry = checkTelemetryOption(own.telemetry);
    const shared = !(this.#quota instanceof Quota);
    const transport = new Transport(
      this.#resolved,
      this.#quota,
      telemetry && lazyClientTelemetry(telemetry, this.#resolved, shared, VERSION),
    );
    this.journals = new Journals(transport, cache);
    this.papers = new Papers(transport, cache);
    this.authors = new Authors(transport, cache);
    this.subjects = new Subjects(transport, cache);
    this.countries = new Countries(transport, cache);
  }

  /**
   * A new client over this one's options with `options` laid over them; `headers` are merged, the
   * new ones winning, and `hooks` too, this client's running first. This client is unchanged.
   *
   * The new client shares this one's quota (`maxConcurrency` and `maxRequestsPerMinute`, or
   * `quota`, and the pause after a 429) as long as it talks to the same API with the same key and sets no limit of its
   * own: the server counts requests per key, so two clients on one key draw from one allowance.
   *
   * @example
   * ```ts
   * const client = new MetricClient({ apiKey, baseUrl, maxConcurrency: 4 });
   * // Fail fast for an interactive call; still within the same four requests in flight.
   * const strict = client.withOptions({ timeout: 5_000, maxRetries: 0 });
   * const journal = await strict.journals.get(42);
   * ```
   */
  withOptions(options: ClientOptions): MetricClient {
    if (options === null || typeof options !== 'object') {
      throw new MetricError('withOptions() takes an object of client options');
    }
    const parent = this.#resolved;
    // An option given as `undefined` keeps the parent's, as an option left out does.
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    const merged: ClientOptions = {
      ...this.#options,
      apiKey: parent.apiKey,
      baseUrl: parent.baseUrl,
      ...given,
      headers: mergeHeaders(this.#options.headers, options.headers),
      hooks: mergeHooks(this.#options.hooks, options.hooks),
    };
    const child = resolveClientOptions(merged);
    const shared =
      child.apiKey === parent.apiKey &&
      child.baseUrl === parent.baseUrl &&
      options.maxConcurrency === undefined &&
      options.maxRequestsPerMinute === undefined &&
      options.quota === undefined;
    // The same API and key, and no cache option of its own: the child keeps and drops answers with
    // its parent, so one `client.cache.apply(event)` serves both.
    const sameCache =
      child.apiKey === parent.apiKey && child.baseUrl === parent.baseUrl && !('cache' in given);
    const handed: ClientOptions & Inherited = {
      ...merged,
      ...(shared && { [inheritedQuota]: this.#quota }),
      ...(sameCache && this.cache !== undefined && { [inheritedCache]: this.cache as ClientCache }),
    };
    return new MetricClient(handed);
  }
}

/** The keys under which withOptions hands a child its parent's quota and cache (symbols: no user option can clash). */
const inheritedQuota = Symbol('inheritedQuota');
const inheritedCache = Symbol('inheritedCache');

interface Inherited {
  readonly [inheritedQuota]?: RequestQuota;
  readonly [inheritedCache]?: ClientCache;
}

/** The shared quota's part for this key and base URL, or the client's own limits. */
function quotaFor(options: ClientOptions, resolved: ResolvedClientOptions): RequestQuota {
  const { quota } = options;
  if (quota === undefined) return new Quota(options);
  if (options.maxConcurrency !== undefined || options.maxRequestsPerMinute !== undefined) {
    throw new MetricError('Set the limits on `quota`, not `maxConcurrency` or `maxRequestsPerMinute`');
  }
  if (quota === null || typeof (quota as Partial<SharedQuota>).forClient !== 'function') {
    throw new MetricError('`quota` must come from createRedisQuota()');
  }
  return quota.forClient({ baseUrl: resolved.baseUrl, apiKey: resolved.apiKey });
}

function mergeHeaders(
  base: HeadersInput | undefined,
  extra: HeadersInput | undefined,
): HeadersInput | undefined {
  if (base === undefined || extra === undefined) return extra ?? base;
  const merged = new Headers(base as HeadersInit);
  for (const [name, value] of new Headers(extra as HeadersInit)) merged.set(name, value);
  return merged;
}
