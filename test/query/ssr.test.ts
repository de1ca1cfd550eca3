// A server render and its page: the server prefetches with its own client (which holds the key), the
// cache goes into the HTML as JSON, and the page, with a client of its own, finds it there.
import { dehydrate, hydrate, InfiniteQueryObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import {
  QueryClientProvider,
  useQuery,
  useSuspenseInfiniteQuery,
  useSuspenseQueries,
  useSuspenseQuery,
} from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { metricQueries } from '../../src/query/index.js';
import type { MetricQueryDefaults } from '../../src/query/types.js';
import { createMockApi, MOCK_API_KEY } from '../../src/testing/index.js';
import { testClient } from '../support.js';
import { mockQueries } from './setup.js';

const papers = { per_page: 3 };

/** The server's render: what it prefetches, dehydrated and written into the page as JSON. */
async function serverRender(defaults: MetricQueryDefaults) {
  const { queries, queryClient } = mockQueries({ defaults });
  await queryClient.prefetchQuery(queries.journals.get(1));
  await queryClient.prefetchQuery(queries.journals.score(1));
  await queryClient.prefetchInfiniteQuery({ ...queries.journals.papers(1, papers), pages: 2 });
  return JSON.stringify(dehydrate(queryClient));
}

/** The page: a client without a key, calling its own origin, where a proxy adds the key. */
function page(html: string, defaults: MetricQueryDefaults) {
  const baseUrl = 'https://app.example/api/v1';
  const api = createMockApi({ baseUrl });
  const proxy = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    request.headers.set('authorization', `Bearer ${MOCK_API_KEY}`);
    return api.fetch(request);
  };
  const client = testClient({ apiKey: null, fetch: proxy }, api);
  const queries = metricQueries(client, defaults);
  const queryClient = new QueryClient();
  hydrate(queryClient, JSON.parse(html));
  return { api, queries, queryClient };
}

describe('scholarly-metrics/query: a server render hydrates the page', () => {
  it('finds every prefetched query under a shared key, in each hook, without a request', async () => {
    const defaults = { key: ['scholarly-metrics'], staleTime: 60_000 };
    const html = await serverRender(defaults);
    expect(html).not.toContain(MOCK_API_KEY);
    const { api, queries, queryClient } = page(html, defaults);

    function Journal(): ReactNode {
      const { data } = useQuery(queries.journals.get(1));
      const [profile, score] = useSuspenseQueries({
        queries: [queries.journals.get(1), queries.journals.score(1)],
      }).map((result) => result.data);
      const suspended = useSuspenseQuery(queries.journals.score(1)).data;
      const list = useSuspenseInfiniteQuery(queries.journals.papers(1, papers));
      const count = list.data.pages.flatMap((each) => each.data).length;
      return `${data?.name}|${profile === data}|${score === suspended}|${count}|${list.hasNextPage}`;
    }
    const rendered = renderToString(
      createElement(QueryClientProvider, { client: queryClient }, createElement(Journal)),
    );
    const name = queryClient.getQueryData(queries.journals.get(1).queryKey)?.name;
    expect(rendered).toBe(`${name}|true|true|6|true`);

    // Mounted, as the page's components are once hydrated: fresh data, so no refetch starts.
    const journal = new QueryObserver(queryClient, queries.journals.get(1));
    const list = new InfiniteQueryObserver(queryClient, queries.journals.papers(1, papers));
    const stops = [journal.subscribe(() => {}), list.subscribe(() => {})];
    expect([journal.getCurrentResult().fetchStatus, list.getCurrentResult().fetchStatus]).toEqual([
      'idle',
      'idle',
    ]);
    // The pages' numbers came through the JSON: the walk goes on from the third.
    const more = await list.fetchNextPage();
    for (const stop of stops) stop();
    expect(more.data?.pageParams).toEqual([1, 2, 3]);
    expect(api.requests.map((request) => request.path)).toEqual([
      '/api/v1/journals/1/papers?page=3&per_page=3',
    ]);
  });

  it('misses under the default keys, which carry each client’s base URL', async () => {
    const html = await serverRender({ staleTime: 60_000 });
    const { queries, queryClient } = page(html, { staleTime: 60_000 });
    expect(queryClient.getQueryData(queries.journals.get(1).queryKey)).toBeUndefined();
  });

  it('refetches hydrated data at once on mount when no staleTime is given (TanStack’s is 0)', async () => {
    const html = await serverRender({ key: ['scholarly-metrics'] });
    const { api, queries, queryClient } = page(html, { key: ['scholarly-metrics'] });
    const observer = new QueryObserver(queryClient, queries.journals.get(1));
    const stop = observer.subscribe(() => {});
    expect(observer.getCurrentResult().fetchStatus).toBe('fetching');
    await vi.waitFor(() =>
      expect(api.requests.map((request) => request.path)).toEqual(['/api/v1/journals/1']),
    );
    stop();
  });
});
