// A client over the in-process mock (every request in `api.requests`) and its queries.
import { QueryClient, QueryObserver } from '@tanstack/query-core';
import type { ClientOptions } from '../../src/index.js';
import { metricQueries } from '../../src/query/index.js';
import type { MetricQueryDefaults, MetricQueryOptions } from '../../src/query/types.js';
import { createMockApi, type MockApiOptions } from '../../src/testing/index.js';
import { testClient } from '../support.js';

export function mockQueries(
  options: { api?: MockApiOptions; client?: ClientOptions; defaults?: MetricQueryDefaults } = {},
) {
  const api = createMockApi(options.api);
  const client = testClient(options.client, api);
  const queries = metricQueries(client, options.defaults);
  // No default options of its own: what the queries carry is what runs.
  const queryClient = new QueryClient();
  return { api, client, queries, queryClient };
}

/** The request paths the mock received since `from` (an index into its log). */
export function pathsSince(api: { requests: readonly { path: string }[] }, from: number): string[] {
  return api.requests.slice(from).map((request) => request.path);
}

/**
 * Queries a page has on screen: each observed (so an invalidation refetches it) and fetched once.
 * Resolves to the function that stops watching them.
 */
export async function watch(
  queryClient: QueryClient,
  watched: readonly MetricQueryOptions<unknown>[],
): Promise<() => void> {
  const observers = watched.map((options) => new QueryObserver(queryClient, options));
  const stops = observers.map((observer) => observer.subscribe(() => {}));
  await Promise.all(observers.map((observer) => observer.refetch()));
  return () => {
    for (const stop of stops) stop();
  };
}
