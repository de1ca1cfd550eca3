/**
 * `scholarly-metrics/query`: TanStack Query options for every endpoint of a client, for React, Vue,
 * Solid, Svelte and Angular Query alike. Plain objects: this entry imports no TanStack package (its
 * types come from `@tanstack/query-core`, an optional peer), so it adds only itself to a bundle.
 */
import { endpoints } from '../api/endpoints.js';
import type { MetricClient } from '../client.js';
import type { Endpoint } from '../core/endpoint.js';
import { ConfigurationError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { checkNames, checkObject, type OptionNames } from '../core/options/checks.js';
import type { WebhookEvent } from '../webhooks/event.js';
import { endpointQueries, type MethodCall } from './endpoint-queries.js';
import { type FollowOptions, follow } from './follow.js';
import { checkQueryClient, invalidateEvent } from './invalidate.js';
import type { InvalidatingClient, LaidDefaults, MetricQueries, MetricQueryDefaults } from './types.js';

export type { PlainPage } from '../core/page.js';
export type { EventSourceLike, FollowOptions } from './follow.js';
export type {
  InvalidatingClient,
  LaidDefaults,
  MetricInfiniteQueryOptions,
  MetricQueries,
  MetricQueryDefaults,
  MetricQueryOptions,
  PagedQuery,
} from './types.js';

/**
 * The entry's own defaults, under the caller's: the SDK already retries what is worth retrying
 * (honouring `Retry-After`, never a 4xx), and a query paused offline would hide its `ConnectionError`.
 * TanStack refetches on reconnect only in its other network modes: said here, so a query that failed
 * offline is asked again once the browser is back online.
 */
const entryDefaults: LaidDefaults = { retry: false, networkMode: 'always', refetchOnReconnect: true };

/**
 * One `true` per default `metricQueries` takes: the compiler holds the names to
 * {@link MetricQueryDefaults}. Any other TanStack option (`enabled`, `select`) belongs to one query.
 */
const defaultNames: OptionNames<MetricQueryDefaults> = {
  key: true,
  retry: true,
  retryDelay: true,
  networkMode: true,
  staleTime: true,
  gcTime: true,
  refetchOnWindowFocus: true,
  refetchOnReconnect: true,
  refetchOnMount: true,
  refetchInterval: true,
  meta: true,
};

function checkKey(key: unknown, client: MetricClient): readonly unknown[] {
  if (key !== undefined && (!Array.isArray(key) || key.length === 0)) {
    throw new ConfigurationError('key', '`key` must be a non-empty array');
  }
  return Object.freeze(key === undefined ? ['scholarly-metrics', client.baseUrl] : [...key]);
}

function checkClient(client: unknown): MetricClient {
  if (!isRecord(client) || Object.keys(endpoints).some((namespace) => !(namespace in client))) {
    throw new ConfigurationError('client', '`client` must be a MetricClient');
  }
  return client as unknown as MetricClient;
}

/**
 * TanStack Query options for every endpoint of `client`, derived from the API's table: query options
 * for each method, infinite options and `.page()` for each paginated one, keyed under `queries.key`.
 *
 * @param defaults TanStack options laid under every option made (`retry: false` and
 *   `networkMode: 'always'` unless given), and `key`, the prefix of every key
 * @throws {ConfigurationError} for a `client` that is not a MetricClient, `defaults` that are not an
 *   object or name an option {@link MetricQueryDefaults} does not have, or a `key` that is not a
 *   non-empty array.
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 * import { metricQueries } from 'scholarly-metrics/query';
 * import { QueryClient } from '@tanstack/query-core';
 *
 * const client = new MetricClient({ apiKey: null, baseUrl: 'https://example.org/api/v1' });
 * const queries = metricQueries(client, { staleTime: 60_000 });
 * const queryClient = new QueryClient();
 * const journal = await queryClient.fetchQuery(queries.journals.get(42));
 * await queryClient.invalidateQueries({ queryKey: queries.key });
 * ```
 */
export function metricQueries(client: MetricClient, defaults?: MetricQueryDefaults): MetricQueries {
  const checked = checkClient(client);
  const given = checkObject<MetricQueryDefaults>('defaults', defaults) ?? {};
  checkNames('metricQueries()', given, Object.keys(defaultNames));
  const { key: givenKey, ...laid } = given;
  const key = checkKey(givenKey, checked);
  const under: LaidDefaults = { ...entryDefaults };
  // An option given as `undefined` keeps the entry's default, as one left out does.
  for (const [name, value] of Object.entries(laid)) {
    if (value !== undefined) (under as Record<string, unknown>)[name] = value;
  }
  const queries: Record<string, unknown> = {};
  for (const [namespace, verbs] of Object.entries(endpoints)) {
    const built: Record<string, unknown> = {};
    const resource = (checked as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[
      namespace
    ]!;
    for (const [verb, endpoint] of Object.entries(verbs) as [string, Endpoint][]) {
      // The method as the client's own, called with the query's signal.
      const call: MethodCall = (args, signal) => resource[verb]!(...args, { signal }) as PromiseLike<unknown>;
      built[verb] = endpointQueries(endpoint, call, key, under);
    }
    queries[namespace] = Object.freeze(built);
  }
  const invalidate = async (queryClient: InvalidatingClient, event: WebhookEvent) =>
    invalidateEvent(checkQueryClient(queryClient), key, event);
  return Object.freeze({
    ...queries,
    key,
    invalidate,
    // Each failing invalidation is ignored while following: a wrong client must be told now.
    follow: (queryClient: InvalidatingClient, url: string | URL, options?: FollowOptions) =>
      follow(checkQueryClient(queryClient), url, invalidate, options, () =>
        queryClient.invalidateQueries({ queryKey: key }),
      ),
  }) as unknown as MetricQueries;
}
