import type { DataTag, InfiniteData, NetworkMode, QueryClient, QueryMeta } from '@tanstack/query-core';
import type { CacheMethod } from '../cache/options.js';
import type { MetricClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { MetricError } from '../core/errors.js';
import type { PlainPage } from '../core/page.js';
import type { PagePromise } from '../core/pagination.js';
import type { WebhookEvent } from '../webhooks/event.js';
import type { FollowOptions } from './follow.js';

/**
 * TanStack Query options laid under every option `metricQueries` makes; each given one replaces the
 * entry's default. Spread an option object to change one query: `{ ...queries.journals.get(42), staleTime: 0 }`.
 *
 * @example
 * ```ts
 * import { metricQueries } from 'scholarly-metrics/query';
 *
 * const queries = metricQueries(client, { staleTime: 60_000, refetchOnWindowFocus: false });
 * ```
 */
export interface MetricQueryDefaults {
  /**
   * The key every query of this client starts with; give one when two clients share a base URL but
   * not their data, or when the server's and the browser's clients must agree (hydration).
   * @default ['scholarly-metrics', client.baseUrl]
   */
  key?: readonly unknown[] | undefined;
  /**
   * TanStack's retries, on top of the SDK's own (`maxRetries`, which already honours `Retry-After`
   * and retries no 4xx but a 429): stacked, TanStack's 3 over the SDK's 2 make a 503 twelve requests.
   * @default false
   */
  retry?: boolean | number | ((failureCount: number, error: Error) => boolean) | undefined;
  /** How long TanStack waits between its own retries, when `retry` allows any. */
  retryDelay?: number | ((failureCount: number, error: Error) => number) | undefined;
  /**
   * `'always'` runs the query offline too, so the SDK's `ConnectionError` reaches the page instead of
   * a query paused forever in `fetchStatus: 'paused'`.
   * @default 'always'
   */
  networkMode?: NetworkMode | undefined;
  /** How long data stays fresh, in ms (TanStack's default: 0). */
  staleTime?: number | 'static' | undefined;
  /** How long unused data stays in the cache, in ms (TanStack's default: 5 minutes). */
  gcTime?: number | undefined;
  /** Refetch stale data when the window regains focus (TanStack's default: true). */
  refetchOnWindowFocus?: boolean | 'always' | undefined;
  /**
   * Refetch stale data when the browser comes back online. TanStack's default is true, but false
   * under `networkMode: 'always'`; this entry sets it.
   * @default true
   */
  refetchOnReconnect?: boolean | 'always' | undefined;
  /** Refetch stale data when a component mounts (TanStack's default: true). */
  refetchOnMount?: boolean | 'always' | undefined;
  /** Refetch every so many ms, or never (`false`, TanStack's default). */
  refetchInterval?: number | false | undefined;
  /** Data kept with each query, for a QueryCache's callbacks: TanStack's `QueryMeta`, typed as an app registers it. */
  meta?: QueryMeta | undefined;
}

/**
 * What `metricQueries` lays under each option: its defaults without `key`, none of them `undefined`
 * (one given as `undefined` keeps the entry's default), as TanStack's option types want under
 * `exactOptionalPropertyTypes`.
 *
 * `retry` and `retryDelay` are typed without their function form, though a function given to
 * `metricQueries` is laid as given: TanStack infers a query's error type from that function's
 * parameter, which would override the `Register`ed one (the SDK's errors), and `useSuspenseQueries`,
 * which types each query's error as `unknown`, refuses a function said to take an `Error`.
 *
 * @example
 * ```ts
 * import type { LaidDefaults } from 'scholarly-metrics/query';
 *
 * const laid: LaidDefaults = { staleTime: 60_000, retry: false };
 * ```
 */
export type LaidDefaults = {
  [K in Exclude<keyof MetricQueryDefaults, 'key' | 'retry' | 'retryDelay'>]?: Exclude<
    MetricQueryDefaults[K],
    undefined
  >;
} & {
  retry?: boolean | number;
  retryDelay?: number;
};

/**
 * Options for `useQuery`, `fetchQuery`, `prefetchQuery`, `ensureQueryData`: a key typed with the
 * data it holds, and a function that fetches it.
 *
 * @example
 * ```ts
 * const options: MetricQueryOptions<JournalProfile> = queries.journals.get(42);
 * const journal = await queryClient.fetchQuery(options);
 * ```
 */
export interface MetricQueryOptions<T> extends LaidDefaults {
  /** `[...queries.key, '<method name>', ...arguments]`, tagged with `T`. */
  readonly queryKey: DataTag<readonly unknown[], T, MetricError>;
  /** Calls the client with TanStack's `signal`; rejects with the SDK's typed errors. */
  readonly queryFn: (context: { readonly signal: AbortSignal }) => Promise<T>;
}

/**
 * Options for `useInfiniteQuery`, `fetchInfiniteQuery`, `prefetchInfiniteQuery`: pages as plain
 * objects, numbered from 1, no page requested past the last one.
 *
 * @example
 * ```ts
 * const options: MetricInfiniteQueryOptions<PaperSummary> = queries.papers.search({ q: 'coral reefs' });
 * const { pages } = await queryClient.fetchInfiniteQuery({ ...options, pages: 3 });
 * ```
 */
export interface MetricInfiniteQueryOptions<T> extends LaidDefaults {
  /** `[...queries.key, '<method name>', ...arguments, 'infinite']`, tagged with the pages. */
  readonly queryKey: DataTag<readonly unknown[], InfiniteData<PlainPage<T>, number>, MetricError>;
  /** Fetches page `pageParam` with TanStack's `signal`. */
  readonly queryFn: (context: {
    readonly signal: AbortSignal;
    readonly pageParam: number;
  }) => Promise<PlainPage<T>>;
  /** The page to start from: the `page` parameter when given, else 1. */
  readonly initialPageParam: number;
  /** The next page's number, or `undefined` after the last page. */
  readonly getNextPageParam: (
    lastPage: PlainPage<T>,
    allPages: readonly PlainPage<T>[],
  ) => number | undefined;
}

/**
 * A paginated method's queries: infinite options when called, one page with `.page()`.
 *
 * @example
 * ```ts
 * const search: PagedQuery<PaperSummary, [params?: PaperSearchParams]> = queries.papers.search;
 * useInfiniteQuery(search({ q: 'coral reefs', per_page: 20 })); // page after page, as the list scrolls
 * useQuery(search.page({ q: 'coral reefs', page: 3 }));          // page 3 alone
 * ```
 */
export interface PagedQuery<T, A extends readonly unknown[]> {
  /**
   * Infinite options: pages from the `page` parameter (else 1) to the last, none past it (a walk that
   * starts past page 1, on a server serving another page size than asked: see docs/browser.md).
   */
  (...args: A): MetricInfiniteQueryOptions<T>;
  /** One page, as `useQuery` options: `queries.papers.search.page({ q, page: 3 })`. */
  page(...args: A): MetricQueryOptions<PlainPage<T>>;
}

/** A tuple without its last element, optional elements kept optional: a method's arguments without its options. */
type WithoutLast<P extends readonly unknown[]> = number extends P['length']
  ? P
  : P extends readonly []
    ? []
    : P extends readonly [infer A, ...infer R]
      ? [A, ...WithoutLast<R>]
      : P extends readonly [(infer A)?, ...infer R]
        ? R extends readonly []
          ? []
          : [A?, ...WithoutLast<R>]
        : P;

/** The queries of one client method: infinite and page options when it pages, query options else. */
type QueriesOf<M> = M extends (...args: infer P) => PagePromise<infer T>
  ? PagedQuery<T, WithoutLast<P>>
  : M extends (...args: infer P) => APIPromise<infer T>
    ? (...args: WithoutLast<P>) => MetricQueryOptions<T>
    : never;

type NamespaceOf<M> = M extends `${infer N}.${string}` ? N : never;
type VerbOf<M, N extends string> = M extends `${N}.${infer V}` ? V : never;
type Namespaces = NamespaceOf<CacheMethod> & keyof MetricClient;

/**
 * The part of a QueryClient the entry calls: any adapter's client (React, Vue, Solid, Svelte, Angular).
 *
 * @example
 * ```ts
 * const queryClient: InvalidatingClient = useQueryClient();
 * await queries.invalidate(queryClient, event);
 * ```
 */
export type InvalidatingClient = Pick<QueryClient, 'invalidateQueries'>;

/**
 * Every endpoint's queries, by the client's namespaces and method names, and what acts on them all.
 *
 * @example
 * ```ts
 * const queries: MetricQueries = metricQueries(client);
 * useQuery(queries.journals.get(42));
 * useInfiniteQuery(queries.papers.search({ q: 'coral reefs', per_page: 20 }));
 * ```
 */
export type MetricQueries = {
  readonly [N in Namespaces]: {
    readonly [V in VerbOf<CacheMethod, N> & keyof MetricClient[N]]: QueriesOf<MetricClient[N][V]>;
  };
} & {
  /** The prefix of every key of this client: `invalidateQueries({ queryKey: queries.key })`. */
  readonly key: readonly unknown[];
  /**
   * Invalidates what an event makes stale: for `score_updated`, that journal's profile
   * (`journals.get`), its score history (`journals.score`) and the journal list. Rejects with a
   * `ConfigurationError` for a `queryClient` without `invalidateQueries`, and with a
   * `WebhookPayloadError` for a `score_updated` event whose `journal_id` is no integer (as
   * `client.cache.apply` does, which takes the same: an event's other fields are not read).
   */
  invalidate(
    queryClient: InvalidatingClient,
    event: Pick<WebhookEvent, 'event' | 'journal_id'> & Partial<WebhookEvent>,
  ): Promise<void>;
  /**
   * Follows an event relay's stream at `url`, invalidating on each event (and every query under
   * `key` when events were missed, unless `options.missed` says otherwise); returns `stop`.
   * `options.eventSource` opens the stream where the page's own `EventSource` will not do: a relay
   * on another origin that needs cookies, a polyfill, a test.
   * @throws {ConfigurationError} for a `queryClient` without `invalidateQueries`, a `url` that is
   *   not a string or a URL, or no `EventSource` (neither the runtime's nor `options.eventSource`).
   */
  follow(queryClient: InvalidatingClient, url: string | URL, options?: FollowOptions): () => void;
};
