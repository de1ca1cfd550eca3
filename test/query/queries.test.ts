import { hashKey, onlineManager, QueryClient, QueryObserver } from '@tanstack/query-core';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  AuthenticationError,
  ConfigurationError,
  InvalidParameterError,
  type JournalProfile,
  type MetricClient,
  NotFoundError,
  type Subject,
} from '../../src/index.js';
import { metricQueries } from '../../src/query/index.js';
import type { MetricQueryDefaults, PagedQuery } from '../../src/query/types.js';
import { testClient } from '../support.js';
import { mockQueries, pathsSince } from './setup.js';

describe('scholarly-metrics/query: query options for every endpoint', () => {
  it('fetches through the client, keyed [...queries.key, method, ...arguments]', async () => {
    const { api, client, queries, queryClient } = mockQueries();
    const options = queries.journals.get(1);
    expect(options.queryKey).toEqual(['scholarly-metrics', client.baseUrl, 'journals.get', 1]);
    const journal = await queryClient.fetchQuery(options);
    expect(journal).toEqual(await client.journals.get(1));
    expect(pathsSince(api, 0)).toEqual(['/api/v1/journals/1', '/api/v1/journals/1']);
    const cached = queryClient.getQueryData(options.queryKey);
    expectTypeOf(cached).toEqualTypeOf<JournalProfile | undefined>();
    expect(cached).toEqual(journal);
  });

  it('copies the parameters: a change the caller makes later changes neither the key nor the request', async () => {
    const { api, queries, queryClient } = mockQueries();
    const params: { q: string; per_page: number } = { q: 'coral', per_page: 2 };
    const options = queries.papers.search.page(params);
    const infinite = queries.papers.search(params);
    params.q = 'graphene';
    expect(options.queryKey.at(-1)).toEqual({ q: 'coral', per_page: 2 });
    expect(infinite.queryKey.at(-2)).toEqual({ q: 'coral', per_page: 2 });
    const from = api.requests.length;
    await queryClient.fetchQuery(options);
    await queryClient.fetchInfiniteQuery(infinite);
    expect(pathsSince(api, from)).toHaveLength(2);
    for (const path of pathsSince(api, from)) expect(path).toContain('q=coral');
  });

  it('covers every method of the API table, each calling the client', async () => {
    const { api, queries, queryClient } = mockQueries();
    const subjects = await queryClient.fetchQuery(queries.subjects.list());
    expectTypeOf(subjects).toEqualTypeOf<Subject[]>();
    await queryClient.fetchQuery(queries.countries.list({ show: 'all' }));
    await queryClient.fetchQuery(queries.journals.list());
    await queryClient.fetchQuery(queries.journals.score(2));
    const { data } = await queryClient.fetchQuery(queries.papers.search.page({ q: 'coral', per_page: 2 }));
    const { doi } = data.find((paper) => paper.doi !== undefined)!;
    await queryClient.fetchQuery(queries.papers.get(doi!));
    await queryClient.fetchQuery(queries.authors.get(3));
    await queryClient.fetchQuery(queries.authors.list.page());
    await queryClient.fetchQuery(queries.journals.papers.page(1, { per_page: 2 }));
    expect(pathsSince(api, 0).map((path) => path.split('?')[0])).toEqual([
      '/api/v1/subjects',
      '/api/v1/countries',
      '/api/v1/journals',
      '/api/v1/journals/2/score',
      '/api/v1/papers',
      `/api/v1/papers/${encodeURIComponent(doi!)}`,
      '/api/v1/authors/3',
      '/api/v1/authors',
      '/api/v1/journals/1/papers',
    ]);
    expect(api.requests[1]!.path).toContain('show=all');
  });

  it('leaves trailing missing arguments out of the key: search() and search(undefined) are one query', () => {
    const { queries } = mockQueries();
    expect(queries.papers.search.page(undefined).queryKey).toEqual(queries.papers.search.page().queryKey);
    expect(queries.journals.papers(4).queryKey).toEqual([...queries.key, 'journals.papers', 4, 'infinite']);
    expect(queries.journals.papers.page(4, { page: 2 }).queryKey).toEqual([
      ...queries.key,
      'journals.papers',
      4,
      { page: 2 },
    ]);
  });

  it('leaves parameters with no value out of the key: list(), list({}) and list({ show: undefined }) share a cache entry', async () => {
    const { queries } = mockQueries();
    const bare = queries.countries.list().queryKey;
    expect(queries.countries.list({}).queryKey).toEqual(bare);
    expect(queries.countries.list({ show: undefined }).queryKey).toEqual(bare);
    expect(queries.countries.list({ show: 'all' }).queryKey).not.toEqual(bare);
    expect(queries.papers.search.page({}).queryKey).toEqual(queries.papers.search.page().queryKey);
    expect(queries.journals.papers(4, {}).queryKey).toEqual(queries.journals.papers(4).queryKey);
    // As TanStack Query stores them: one entry for the three calls.
    const queryClient = new QueryClient();
    await queryClient.fetchQuery(queries.countries.list());
    expect(queryClient.getQueryData(queries.countries.list({}).queryKey)).toBeDefined();
  });

  it('keys parameters the client refuses (a URLSearchParams, a Map) apart from no parameters', async () => {
    const { api, queries, queryClient } = mockQueries();
    const search = queries.papers.search as unknown as PagedQuery<unknown, [params?: unknown]>;
    await queryClient.fetchQuery(search.page());
    await queryClient.fetchInfiniteQuery(search());
    const from = api.requests.length;
    for (const params of [new URLSearchParams({ q: 'coral' }), new Map([['q', 'coral']])]) {
      expect(hashKey(search.page(params).queryKey)).not.toBe(hashKey(search.page().queryKey));
      expect(hashKey(search(params).queryKey)).not.toBe(hashKey(search().queryKey));
      // Never the unfiltered page cached under the other key: the client's refusal, nothing sent.
      await expect(queryClient.fetchQuery(search.page(params))).rejects.toBeInstanceOf(InvalidParameterError);
      await expect(queryClient.fetchInfiniteQuery(search(params))).rejects.toBeInstanceOf(
        InvalidParameterError,
      );
    }
    expect(pathsSince(api, from)).toEqual([]);
  });

  it('rejects with the SDK’s typed errors, one attempt for a 4xx', async () => {
    const { api, queries, queryClient } = mockQueries();
    api.faults.next({ status: 401 });
    await expect(queryClient.fetchQuery(queries.journals.get(1))).rejects.toBeInstanceOf(AuthenticationError);
    await expect(queryClient.fetchQuery(queries.journals.get(999_999))).rejects.toBeInstanceOf(NotFoundError);
    expect(api.requests).toHaveLength(2);
  });

  it('leaves retries to the SDK: a 503 is its 1 + maxRetries attempts, not TanStack’s on top', async () => {
    const { api, queries } = mockQueries({ client: { maxRetries: 2 } });
    // TanStack retries 3 times by default in a browser (never on a server, as here): asked for explicitly.
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 0 } } });
    api.faults.next({ status: 503, headers: { 'retry-after': '0' }, times: 20 });
    const observer = new QueryObserver(queryClient, queries.journals.get(1));
    const settled = new Promise((resolve) => {
      const stop = observer.subscribe((result) => {
        if (result.status === 'error' && result.fetchStatus === 'idle') resolve(stop());
      });
    });
    await settled;
    expect(api.requests).toHaveLength(3);
    expect(observer.getCurrentResult().failureCount).toBe(1);
  });

  it('asks a query that failed offline again when the browser is back online', async () => {
    const { api, queries, queryClient } = mockQueries({ client: { maxRetries: 0 } });
    queryClient.mount();
    onlineManager.setOnline(false);
    try {
      api.faults.next({ reset: true });
      const observer = new QueryObserver(queryClient, queries.journals.get(1));
      const stop = observer.subscribe(() => {});
      // Waited for as long as the test may run: the in-process mock answers at once.
      const patiently = { timeout: 30_000 };
      await vi.waitFor(
        () => expect(observer.getCurrentResult().error?.name).toBe('ConnectionError'),
        patiently,
      );
      onlineManager.setOnline(true);
      await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('success'), patiently);
      expect(api.requests).toHaveLength(2);
      stop();
    } finally {
      onlineManager.setOnline(true);
      queryClient.unmount();
    }
  });

  it('lays the defaults under every option; given ones win, undefined keeps the entry’s', () => {
    const { queries: plain } = mockQueries();
    expect(plain.journals.get(1)).toMatchObject({
      retry: false,
      networkMode: 'always',
      refetchOnReconnect: true,
    });
    expect(plain.papers.search()).toMatchObject({ retry: false, networkMode: 'always', initialPageParam: 1 });
    const { queries } = mockQueries({ defaults: { retry: 1, staleTime: 5_000, networkMode: undefined } });
    for (const options of [queries.journals.list(), queries.papers.search.page(), queries.authors.list()]) {
      expect(options).toMatchObject({ retry: 1, staleTime: 5_000, networkMode: 'always' });
    }
  });

  it('takes every default it documents, and refuses any other name by name', () => {
    const client = testClient({ apiKey: null, baseUrl: 'https://example.org/api/v1' });
    const every: Required<MetricQueryDefaults> = {
      key: ['app'],
      retry: 1,
      retryDelay: 10,
      networkMode: 'online',
      staleTime: 1,
      gcTime: 1,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      refetchOnMount: false,
      refetchInterval: false,
      meta: {},
    };
    expect(() => metricQueries(client, every)).not.toThrow();
    for (const name of ['stalTime', 'enabled', 'queryFn', 'getNextPageParam', 'initialPageParam']) {
      const defaults = { staleTime: 1, [name]: undefined } as MetricQueryDefaults;
      expect(() => metricQueries(client, defaults)).toThrow(`metricQueries() takes no option "${name}"`);
      expect(() => metricQueries(client, defaults)).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option: name }),
      );
    }
  });

  it('refuses what is not a client, a key that is not an array, defaults that are not an object', () => {
    const client = testClient({ apiKey: null, baseUrl: 'https://example.org/api/v1' });
    expect(() => metricQueries({} as MetricClient)).toThrow(ConfigurationError);
    expect(() => metricQueries(client, { key: 'mine' as never })).toThrow(/`key` must be a non-empty array/);
    expect(() => metricQueries(client, { key: [] })).toThrow(ConfigurationError);
    expect(() => metricQueries(client, 7 as never)).toThrow(ConfigurationError);
    expect(metricQueries(client, { key: ['app', 'metrics'] }).journals.get(1).queryKey).toEqual([
      'app',
      'metrics',
      'journals.get',
      1,
    ]);
  });
});
