// A client over the in-process mock (every request in `api.requests`) and its queries.
import { QueryClient } from '@tanstack/query-core';
import { type ClientOptions, MetricClient } from '../../src/index.js';
import { metricQueries } from '../../src/query/index.js';
import type { MetricQueryDefaults } from '../../src/query/types.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, type MockApiOptions } from '../../src/testing/index.js';

export function mockQueries(
  options: { api?: MockApiOptions; client?: ClientOptions; defaults?: MetricQueryDefaults } = {},
) {
  const api = createMockApi(options.api);
  const client = new MetricClient({
    apiKey: MOCK_API_KEY,
    baseUrl: options.api?.baseUrl ?? MOCK_BASE_URL,
    fetch: api.fetch,
    ...options.client,
  });
  const queries = metricQueries(client, options.defaults);
  // No default options of its own: what the queries carry is what runs.
  const queryClient = new QueryClient();
  return { api, client, queries, queryClient };
}

/** The request paths the mock received since `from` (an index into its log). */
export function pathsSince(api: { requests: readonly { path: string }[] }, from: number): string[] {
  return api.requests.slice(from).map((request) => request.path);
}
