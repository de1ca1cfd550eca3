import { clientCache } from './cache/client-cache.js';
import type { CacheOptions } from './cache/options.js';
import type { ClientOptions } from './client-options.js';
import type { ClientCache, MetricCache } from './core/cache-types.js';
import type { HeadersInput } from './core/headers.js';
import { mergeHooks } from './core/hooks.js';
import { checkObject } from './core/options/checks.js';
import { checkHeaders } from './core/options/request.js';
import { checkTelemetryOption } from './core/options/telemetry.js';
import { Quota } from './core/quota.js';
import type { RequestQuota } from './core/quota-types.js';
import { Transport } from './core/transport.js';
import { VERSION } from './core/version.js';
import { type ResolvedMetricClientOptions, resolveClientOptions } from './resolve-options.js';
import { Authors } from './resources/authors.js';
import { Countries } from './resources/countries.js';
import { Journals } from './resources/journals.js';
import { Papers } from './resources/papers.js';
import { Subjects } from './resources/subjects.js';
import { lazyClientTelemetry } from './telemetry/options.js';

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
 *
 * @typeParam CacheOption - The `cache` option it was made with, as given: `client.cache` is typed
 * from it, a `MetricCache` for `cache: true` or a store's options, `undefined` without one.
 */
export class MetricClient<CacheOption extends ClientOptions['cache'] = ClientOptions['cache']> {
  // Declared only: the constructor assigns each (in this order), so the built class need not list them.
  /** Journals: list, profile, papers, score history. */
  declare readonly journals: Journals;
  /** Papers: search, lookup by DOI. */
  declare readonly papers: Papers;
  /** Authors: list, profile. */
  declare readonly authors: Authors;
  /** Subject areas. */
  declare readonly subjects: Subjects;
  /** Countries. */
  declare readonly countries: Countries;
  /** The cache, when the `cache` option was given (`undefined` otherwise): `apply(event)`, `clear()`. */
  declare readonly cache: CacheOption extends false | undefined ? undefined : MetricCache;

  readonly #options: ClientOptions;
  readonly #resolved: ResolvedMetricClientOptions;
  readonly #quota: RequestQuota;

  /** Throws a `ConfigurationError` that names the option or variable at fault. */
  constructor(options?: ClientOptions & { cache?: CacheOptionOf<CacheOption> }) {
    // A child of withOptions comes with its options resolved and its parent's quota and cache.
    const inherited = handing;
    handing = undefined;
    this.#options = options ?? {};
    this.#resolved = inherited?.resolved ?? resolveClientOptions(this.#options);
    const resolved = this.#resolved;
    // A child's calls go through its parent's cache, partitioned by the child's own credentials.
    const cache =
      inherited?.cache?.forClient(resolved) ?? (resolved.cache && clientCache(resolved.cache, resolved));
    this.#quota =
      inherited?.quota ??
      resolved.quota?.forClient({ baseUrl: resolved.baseUrl, apiKey: resolved.secret }) ??
      new Quota(resolved.limits);
    const telemetry = checkTelemetryOption(this.#options.telemetry);
    const shared = !(this.#quota instanceof Quota);
    const transport = new Transport(
      resolved,
      this.#quota,
      telemetry && lazyClientTelemetry(telemetry, resolved, shared, VERSION),
    );
    this.journals = new Journals(transport, cache);
    this.papers = new Papers(transport, cache);
    this.authors = new Authors(transport, cache);
    this.subjects = new Subjects(transport, cache);
    this.countries = new Countries(transport, cache);
    // Made exactly when the option asks for one, as the type says.
    this.cache = (inherited?.cache ?? cache) as this['cache'];
  }

  /**
   * The base URL this client sends its requests to, as resolved from `baseUrl` or `METRIC_BASE_URL`
   * (never a credential: one in the URL is refused). `scholarly-metrics/query` keys queries by it.
   *
   * @example
   * ```ts
   * const client = new MetricClient({ apiKey: null, baseUrl: 'https://example.org/api/v1' });
   * console.log(client.baseUrl); // https://example.org/api/v1
   * ```
   */
  get baseUrl(): string {
    return this.#resolved.baseUrl;
  }

  /**
   * A new client over this one's options with `options` laid over them; `headers` are merged, the
   * new ones winning, and `hooks` too, this client's running first. This client is unchanged.
   *
   * The new client shares this one's quota (`maxConcurrency` and `maxRequestsPerMinute`, or
   * `quota`, and the pause after a 429) as long as it talks to the same API with the same key and sets no limit of its
   * own: the server counts requests per key, so two clients on one key draw from one allowance.
   * The new client takes over this one's `maxConcurrency`, `maxRequestsPerMinute` and `pacing` too,
   * so giving it a `quota` when this one has any of them is refused, as `new MetricClient()` refuses
   * both together: make such a child from a client without limits of its own.
   *
   * Without a `cache` option of its own, the new client keeps its answers in this one's cache (under
   * its own credentials, as any call is), so one `client.cache.apply(event)` serves both; with another
   * `baseUrl`, it has a cache of its own.
   *
   * @example
   * ```ts
   * const client = new MetricClient({ apiKey, baseUrl, maxConcurrency: 4 });
   * // Fail fast for an interactive call; still within the same four requests in flight.
   * const strict = client.withOptions({ timeout: 5_000, maxRetries: 0 });
   * const journal = await strict.journals.get(42);
   * ```
   */
  withOptions<ChildCache extends ClientOptions['cache'] = CacheOption>(
    options: ClientOptions & { cache?: CacheOptionOf<ChildCache> },
  ): MetricClient<InheritedCache<ChildCache, CacheOption>> {
    checkObject('options', options);
    // Called from JavaScript with none, the child is like its parent, as with `{}` (null is refused above).
    options ??= {};
    const parent = this.#resolved;
    // Typed as records: the loop below reads and sets them by name.
    const inherited: Record<string, unknown> = {
      ...this.#options,
      apiKey: parent.apiKey,
      baseUrl: parent.baseUrl,
    };
    const merged: Record<string, unknown> = {
      ...inherited,
      ...options,
      headers: mergeHeaders(this.#options.headers, options.headers),
      hooks: mergeHooks(this.#options.hooks, options.hooks),
    };
    // An option given as `undefined` keeps the parent's, as an option left out does. Its name stays,
    // so that a misspelt one is refused as the constructor refuses it.
    for (const name of Object.keys(merged)) if (merged[name] === undefined) merged[name] = inherited[name];
    const resolved = resolveClientOptions(merged);
    const sameApi = resolved.secret === parent.secret && resolved.baseUrl === parent.baseUrl;
    // The server counts requests per key, so two clients on one key draw from one allowance.
    const sharesQuota =
      sameApi &&
      options.maxConcurrency === undefined &&
      options.maxRequestsPerMinute === undefined &&
      options.pacing === undefined &&
      options.quota === undefined;
    // With no cache option of its own, the child keeps and drops answers with its parent, so one
    // `client.cache.apply(event)` serves both; another key has answers of its own there (credentials
    // partition the cache), another API a cache of its own.
    const sharesCache = resolved.baseUrl === parent.baseUrl && options.cache === undefined;
    handing = {
      resolved,
      quota: sharesQuota ? this.#quota : undefined,
      cache: sharesCache ? (this.cache as ClientCache | undefined) : undefined,
    };
    // Its cache is this one's, or the one its own option asks for: as its type says.
    return new MetricClient(merged) as MetricClient<InheritedCache<ChildCache, CacheOption>>;
  }
}

/**
 * The `cache` option as the constructor takes it: the value given, by which `client.cache` is typed,
 * but checked as `CacheOptions` when it is an object, so that a misspelt key is still refused.
 */
type CacheOptionOf<CacheOption> = CacheOption extends object ? CacheOptions : CacheOption;

/** A child's `cache` option: its own, or its parent's when it gives none (`undefined` keeps the parent's). */
type InheritedCache<Own, Parent> = [Own] extends [undefined] ? Parent : Own;

/**
 * What withOptions hands the child it makes: set just before `new MetricClient()` and taken by its
 * constructor at once, so it never reaches the public options.
 */
let handing: Inheritance | undefined;

interface Inheritance {
  readonly resolved: ResolvedMetricClientOptions;
  readonly quota: RequestQuota | undefined;
  readonly cache: ClientCache | undefined;
}

/**
 * The parent's headers with the child's over them. Each read as the constructor reads it: a
 * `HeadersLike` through its `forEach`, and a bad name or value refused without quoting it.
 */
function mergeHeaders(
  base: HeadersInput | undefined,
  extra: HeadersInput | undefined,
): HeadersInput | undefined {
  if (base === undefined || extra === undefined) return extra ?? base;
  const merged = checkHeaders(base)!;
  for (const [name, value] of checkHeaders(extra)!) merged.set(name, value);
  return merged;
}
