import { type EndpointName, endpointList } from '../api/endpoints.js';
import { ConfigurationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { checkInteger, checkNames, checkObject, type Resolved } from '../core/options/checks.js';

/**
 * The methods whose answers the cache keeps, by the names of the contract (the API table's): the keys
 * of `cache.ttl`. `papers.get` covers `papers.getMany` too.
 *
 * @example
 * ```ts
 * import type { CacheMethod } from 'scholarly-metrics';
 *
 * const longLived: CacheMethod[] = ['subjects.list', 'countries.list'];
 * ```
 */
export type CacheMethod = EndpointName;

/** The `ttl` keys: the table's method names. */
const methodNames: ReadonlySet<string> = new Set(endpointList.map((endpoint) => endpoint.name));

/**
 * What the cache needs of a store: a Keyv instance (keyv 5 or 6, over any of its adapters) fits.
 * It is recognised by these methods alone, never by its class, so that two copies of keyv in one
 * application both work.
 *
 * @example
 * ```ts
 * import Keyv from 'keyv';
 * import type { CacheStore } from 'scholarly-metrics';
 *
 * const store: CacheStore = new Keyv({ namespace: 'scholarly-metrics' });
 * ```
 */
export interface CacheStore {
  get(key: string): Promise<unknown> | unknown;
  set(key: string, value: string, ttl?: number): Promise<unknown> | unknown;
  delete(key: string): Promise<unknown> | unknown;
  clear(): Promise<unknown> | unknown;
}

/**
 * The `cache` client option as an object. See docs/cache.md for the default lifetimes. Answers are
 * shared only between calls carrying the same credentials (the API key and every header of the client
 * and the call); a hook that sets credentials is invisible to the cache.
 *
 * @example
 * ```ts
 * import Keyv from 'keyv';
 * import type { CacheOptions } from 'scholarly-metrics';
 *
 * const cache: CacheOptions = {
 *   store: new Keyv(),
 *   ttl: { 'journals.get': 3_600_000, 'papers.search': 0 }, // 0: never kept
 *   staleIfError: 86_400_000,
 * };
 * const client = new MetricClient({ apiKey, baseUrl, cache });
 * ```
 */
export interface CacheOptions {
  /**
   * Where answers are kept: any Keyv instance (Redis, SQLite, Postgres, …), brought by you and never
   * closed by the SDK. `clear()` clears it whole: give the SDK a namespace of its own.
   * @default in memory, bounded (1,000 answers, 16 MiB of JSON text), least recently used out first
   */
  store?: CacheStore | undefined;
  /**
   * How long an answer is served without asking the API, in ms, by method name; `0` never keeps
   * that method's answers. Methods left out keep their defaults.
   * @default see docs/cache.md
   */
  ttl?: { [M in CacheMethod]?: number | undefined } | undefined;
  /**
   * How long past its expiry an answer may still be served when the API fails (a 5xx, a 429, a
   * connection error or a timeout, after the retries), in ms.
   * @default 0
   */
  staleIfError?: number | undefined;
}

/** The cache option once checked: where to keep answers (in memory without a store), and the lifetimes. */
export type ResolvedCacheOptions = Resolved<Pick<CacheOptions, 'ttl' | 'staleIfError'>> &
  Readonly<Pick<CacheOptions, 'store'>>;

/**
 * The longest lifetime, and the longest `staleIfError` (about 31,700 years): now plus both stays an
 * exact integer, so that an entry's expiry is read back as it was written.
 */
const longestLifetime = 1e15;

/**
 * Checks the `cache` client option at construction; `undefined` (and `false`) is no cache. A bad
 * value is a `ConfigurationError` naming the option or `ttl` key at fault (never quoting the value);
 * this code is in every client's first load, cache or not.
 */
export function checkCacheOption(value: unknown): ResolvedCacheOptions | undefined {
  // Left out, or `false`: no cache. Another falsy value (`null`, `0`) is refused below, as any
  // other option's is.
  if (value === undefined || value === false) return undefined;
  // A Keyv given as the option itself would be read as options: its inner store (a Map, or the
  // adapter) taken for `store`, its namespace and lifetimes bypassed.
  if (value !== true && (!isRecord(value) || isStore(value))) {
    throw new ConfigurationError('cache', '`cache` must be true, false or { store, ttl, staleIfError }');
  }
  const options = (value === true ? {} : value) as CacheOptions;
  // Its names as a list (the first load's bytes); a test holds the list to the type.
  const names = ['store', 'ttl', 'staleIfError'] satisfies Array<keyof CacheOptions>;
  checkNames('`cache`', options, names, 'cache.');
  const { store, ttl = {}, staleIfError = 0 } = options;
  if (store !== undefined && !isStore(store)) {
    throw new ConfigurationError(
      'cache.store',
      '`cache.store` must be a Keyv, or an object with get, set, delete and clear methods',
    );
  }
  // Lifetimes are whole milliseconds, 0 or more: stores take any, and nothing here arms a timer.
  checkInteger('cache.staleIfError', staleIfError, 0, longestLifetime);
  checkObject('cache.ttl', ttl);
  for (const [name, lifetime] of Object.entries(ttl)) {
    const option = `cache.ttl['${name}']`;
    if (!methodNames.has(name)) {
      throw new ConfigurationError(
        option,
        `${option}: \`cache.ttl\` keys are method names such as 'journals.get'`,
      );
    }
    checkInteger(option, lifetime, 0, longestLifetime);
  }
  return { store, ttl, staleIfError };
}

/** A store is recognised by its methods, never its class: keyv 5 and 6 (or two copies) both fit. */
function isStore(value: unknown): boolean {
  return ['get', 'set', 'delete', 'clear'].every((name) => typeof (value as never)?.[name] === 'function');
}
