import type { InfiniteData } from '@tanstack/query-core';
import { InfiniteQueryObserver } from '@tanstack/query-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidParameterError, type JournalPaper, type PlainPage } from '../../src/index.js';
import type { MetricInfiniteQueryOptions } from '../../src/query/types.js';
import { createMockApi } from '../../src/testing/index.js';
import { mockQueries, pathsSince } from './setup.js';

const ALL_PAGES = 1_000;

describe('scholarly-metrics/query: infinite queries', () => {
  it('fetches to the end with per_page and requests no page past it', async () => {
    const { api, client, queries, queryClient } = mockQueries();
    const total = (await client.journals.papers(1, { per_page: 3 })).total;
    const from = api.requests.length;
    const options = queries.journals.papers(1, { per_page: 3 });
    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: ALL_PAGES });
    expectTypeOf(data).toEqualTypeOf<InfiniteData<PlainPage<JournalPaper>, number>>();
    const pages = Math.ceil(total / 3);
    expect(total % 3).not.toBe(0);
    expect(pathsSince(api, from)).toHaveLength(pages);
    expect(data.pageParams).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(data.pages.flatMap((page) => page.data)).toHaveLength(total);
    expect(data.pages.at(-1)!.nextPage).toBeUndefined();
  });

  it('ends without per_page too: the last, shorter page is known from the first page’s length', async () => {
    const { api, client, queries, queryClient } = mockQueries();
    const journals = await client.journals.list();
    // A journal whose papers fill two or more pages, the last one short.
    const journal = journals.find((j) => j.total_papers > 20 && j.total_papers % 20 !== 0)!;
    const from = api.requests.length;
    const data = await queryClient.fetchInfiniteQuery({
      ...queries.journals.papers(journal.id),
      pages: ALL_PAGES,
    });
    const size = data.pages[0]!.data.length;
    expect(journal.total_papers % size).not.toBe(0);
    expect(data.pages.length).toBeGreaterThan(1);
    expect(pathsSince(api, from)).toHaveLength(Math.ceil(journal.total_papers / size));
    expect(data.pages.flatMap((page) => page.data)).toHaveLength(journal.total_papers);
  });

  it('walks to the end when the server serves fewer per page than per_page asks', async () => {
    const api = createMockApi();
    // A server that caps per_page at 10, whatever the request asks for.
    const capping = (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (Number(url.searchParams.get('per_page')) > 10) url.searchParams.set('per_page', '10');
      return api.fetch(new Request(url, request));
    };
    const { client, queries, queryClient } = mockQueries({ client: { fetch: capping } });
    const total = (await client.papers.search({ q: 'coral' })).total;
    const data = await queryClient.fetchInfiniteQuery({
      ...queries.papers.search({ q: 'coral', per_page: 15 }),
      pages: ALL_PAGES,
    });
    expect(data.pages).toHaveLength(Math.ceil(total / 10));
    expect(data.pages.flatMap((page) => page.data)).toHaveLength(total);
    expect(data.pages.at(-1)!.data).not.toHaveLength(0);
  });

  it('an observer says there is no next page once the last is in', async () => {
    const { api, queries, queryClient } = mockQueries();
    const observer = new InfiniteQueryObserver(
      queryClient,
      queries.papers.search({ q: 'coral', per_page: 50 }),
    );
    const stop = observer.subscribe(() => {});
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    stop();
    const pages = result.data!.pages;
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flatMap((page) => page.data)).toHaveLength(pages[0]!.total);
    expect(api.requests).toHaveLength(pages.length);
    expect(api.requests.at(-1)!.path).toContain(`page=${pages.length}`);
  });

  it('pages are plain data: structuredClone and JSON keep them whole', async () => {
    const { queries, queryClient } = mockQueries();
    const data = await queryClient.fetchInfiniteQuery({
      ...queries.papers.search({ q: 'coral', per_page: 5 }),
      pages: 2,
    });
    expect(Object.getPrototypeOf(data.pages[0])).toBe(Object.prototype);
    expect(structuredClone(data)).toEqual(data);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    const one = await queryClient.fetchQuery(
      queries.papers.search.page({ q: 'coral', page: 2, per_page: 5 }),
    );
    expect(one).toEqual({ data: expect.any(Array), total: one.total, page: 2, nextPage: 3 });
    expect(structuredClone(one)).toEqual(one);
    expect(JSON.parse(JSON.stringify(one))).toEqual(one);
  });

  it('starts from the page the parameters name', async () => {
    const { api, queries, queryClient } = mockQueries();
    const options = queries.papers.search({ q: 'coral', page: 3, per_page: 5 });
    expect(options.initialPageParam).toBe(3);
    const data = await queryClient.fetchInfiniteQuery(options);
    expect(data.pages[0]!.page).toBe(3);
    expect(api.requests[0]!.path).toContain('page=3');
  });

  it('refuses bad parameters with the client’s own error, never a silent first page', async () => {
    const { client, queries, queryClient } = mockQueries();
    const search = queries.papers.search as unknown as (
      params: unknown,
    ) => MetricInfiniteQueryOptions<unknown>;
    for (const params of [
      'coral',
      null,
      ['coral'],
      { q: 'coral', page: 'two' },
      { q: 'coral', page: null },
      // Not plain objects: spread into one, they would lose their entries and search everything.
      new URLSearchParams({ q: 'coral' }),
      new Map([['q', 'coral']]),
    ]) {
      const direct = await (client.papers.search as (params: unknown) => Promise<unknown>)(params).catch(
        (error: unknown) => error,
      );
      expect(direct).toBeInstanceOf(InvalidParameterError);
      await expect(queryClient.fetchInfiniteQuery(search(params))).rejects.toThrow((direct as Error).message);
    }
  });
});
