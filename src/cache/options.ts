import { describeValue } from '../core/describe-value.js';
import { InvalidParameterError } from '../core/errors.js';

/**
 * The methods whose answers the cache keeps, by the names of the contract: the keys of `cache.ttl`.
 * `papers.get` covers `papers.getMany` too.
 *
 * @example
 * ```ts
 * import type { CacheMethod } from 'scholarly-metrics';
 *
 * const longLived: CacheMethod[] = ['subjects.list', 'countries.list'];
 * ```
 */
export type CacheMethod =
  | 'journals.list'
  | 'journals.get'
  | 'journals.papers'
  | 'journals.score'
  | 'papers.search'
  | 'papers.get'
  | 'authors.list'
  | 'authors.get'
  | 'subjects.list'
  | 'countries.list';

const methods: readonly string[] = [
  'journals.list',
  'journals.get',
  'journals.papers',
  'journals.score',
  'papers.search',
  'papers.get',
  'authors.list',
  'authors.get',
  'subjects.list',
  'countries.list',
];

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
 * The `cache` client option as an object. See docs/cache.md for the default lifetimes.
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
  ttl?: Partial<Record<CacheMethod, number>> | undefined;
  /**
   * How long past its expiry an answer may still be served when the API fails (a 5xx, a 429, a
   * connection error or a timeout, after the retries), in ms.
   * @default 0
   */
  staleIfError?: number | undefined;
}

/** The cache option once checked: where to keep answers, and the lifetimes asked for. */
export interface ResolvedCacheOptions {
  readonly store: CacheStore | undefined;
  readonly ttl: Readonly<Partial<Record<CacheMethod, number>>>;
  readonly staleIfError: number;
}

/** The longest lifetime accepted: a year. */
const maxLifetime = 31_536_000_000;

function checkLifetime(name: string, value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > maxLifetime) {
    throw new InvalidParameterError(
      name,
      `${name} must be a whole number of milliseconds from 0 to ${maxLifetime}, got ${describeValue(value)}`,
    );
  }
  return value as number;
}

/** Checks the `cache` client option at construction; `undefined` (and `false`) is no cache. */
export function checkCacheOption(value: unknown): ResolvedCacheOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { store: undefined, ttl: {}, staleIfError: 0 };
  if (value === null || typeof value !== 'object') {
    throw new InvalidParameterError(
      'cache',
      `cache must be true or { store, ttl, staleIfError }, got ${describeValue(value)}`,
    );
  }
  const { store, ttl = {}, staleIfError = 0 } = value as CacheOptions;
  if (
    store !== undefined &&
    !['get', 'set', 'delete', 'clear'].every(
      (name) => typeof (store as unknown as Record<string, unknown>)?.[name] === 'function',
    )
  ) {
    throw new InvalidParameterError(
      'cache.store',
      'cache.store must be a Keyv instance (get, set, delete and clear)',
    );
  }
  if (ttl === null || typeof ttl !== 'object') {
    throw new InvalidParameterError(
      'cache.ttl',
      `cache.ttl must be an object of lifetimes by method name, got ${describeValue(ttl)}`,
    );
  }
  for (const [name, lifetime] of Object.entries(ttl)) {
    if (!methods.includes(name)) {
      throw new InvalidParameterError(
        `cache.ttl`,
        `cache.ttl has no method '${name}': use one of ${methods.join(', ')}`,
      );
    }
    if (lifetime !== undefined) checkLifetime(`cache.ttl['${name}']`, lifetime);
  }
  return { store, ttl, staleIfError: checkLifetime('cache.staleIfError', staleIfError) };
}
