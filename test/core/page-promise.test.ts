// PagePromise: the first Page with its response, and toArray({ limit }), which asks for no page it
// does not need.
import { inspect } from 'node:util';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, NotFoundError, Page } from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { BASE, json, sequence, TEST_KEY, testClient, useMsw } from '../support.js';

const server = useMsw();

describe('PagePromise', () => {
  const papers = (ids: number[]) =>
    ids.map((id) => ({ id, title: `Paper ${id}`, authors: 'A. Author', year: 2020, citations: id }));

  it('withResponse() gives the first Page, its response and request id', async () => {
    const { handler, seen } = sequence('/journals/1/papers', [
      () => json({ data: papers([1, 2]), total: 2 }, { headers: { 'x-request-id': 'p-1' } }),
    ]);
    server.use(handler);
    const { data, response, requestId } = await testClient().journals.papers(1).withResponse();
    expect(data).toBeInstanceOf(Page);
    expect(data.data.map((p) => p.id)).toEqual([1, 2]);
    expect(data.total).toBe(2);
    expect(response.status).toBe(200);
    expect(requestId).toBe('p-1');
    expect(seen).toHaveLength(1);
  });

  it('asResponse() gives the first page unread and unchecked; a non-2xx rejects typed', async () => {
    const { handler, seen } = sequence('/journals/1/papers', [
      () => json({ not: 'a page' }),
      () => json({ message: 'no' }, { status: 404 }),
    ]);
    server.use(handler);
    const response = await testClient().journals.papers(1).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ not: 'a page' });
    expect(await rejection(testClient().journals.papers(1).asResponse())).toBeInstanceOf(NotFoundError);
    expect(seen.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['1', '1']);
  });
});

describe('PagePromise.toArray({ limit })', () => {
  const perPage = 10;
  const total = 95;

  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  /** 95 papers, 10 per page, served by msw; `asked` lists the pages requested, as fetch is called. */
  function paged() {
    server.use(
      http.get(`${BASE}/journals/1/papers`, async ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        // A little latency, so that prefetched pages really are in flight together.
        await new Promise((resolve) => setTimeout(resolve, 1));
        const ids = range((page - 1) * perPage + 1, Math.min(page * perPage, total));
        const data = ids.map((id) => ({
          id,
          title: `Paper ${id}`,
          authors: 'A. A.',
          year: 2020,
          citations: id,
        }));
        return json({ data, total });
      }),
    );
    const asked: number[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(Number(url.searchParams.get('page')));
      return globalThis.fetch(input, init);
    };
    return { asked, sdk: testClient({ fetch, maxRetries: 0 }) };
  }

  for (const prefetch of [0, 1, 8]) {
    it.each([
      [1, [1]],
      [10, [1]],
      [11, [1, 2]],
      [25, [1, 2, 3]],
      [30, [1, 2, 3]],
      [31, [1, 2, 3, 4]],
      [95, range(1, 10)],
      [500, range(1, 10)],
      [Number.POSITIVE_INFINITY, range(1, 10)],
    ])(
      `prefetch ${prefetch}, limit %s: the items in order, and no page past the last one needed`,
      async (limit, pages) => {
        const { asked, sdk } = paged();
        const items = await sdk.journals.papers(1, { per_page: perPage }, { prefetch }).toArray({ limit });
        expect(items.map((p) => p.id)).toEqual(range(1, Math.min(limit, total)));
        // A request handed over as the walk ended would show up here a moment later.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect([...asked].sort((a, b) => a - b)).toEqual(pages);
      },
    );
  }

  it('counts the limit from the start page', async () => {
    const { asked, sdk } = paged();
    const items = await sdk.journals
      .papers(1, { page: 3, per_page: perPage }, { prefetch: 8 })
      .toArray({ limit: 15 });
    expect(items.map((p) => p.id)).toEqual(range(21, 35));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...asked].sort((a, b) => a - b)).toEqual([3, 4]);
  });

  it("without per_page, the first page's length is the page size the walk counts with", async () => {
    const { asked, sdk } = paged();
    const items = await sdk.journals.papers(1, {}, { prefetch: 8 }).toArray({ limit: 25 });
    expect(items.map((p) => p.id)).toEqual(range(1, 25));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...asked].sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it.each([
    [25, [1, 2, 3]],
    [Number.POSITIVE_INFINITY, range(1, 10)],
  ])(
    'a server that serves more than per_page: limit %s asks for no page past the one needed',
    async (limit, pages) => {
      // The fixture serves 10 a page whatever per_page says: the walk counts pages ahead at 10, not 4.
      const { asked, sdk } = paged();
      const items = await sdk.journals.papers(1, { per_page: 4 }, { prefetch: 8 }).toArray({ limit });
      expect(items.map((p) => p.id)).toEqual(range(1, Math.min(limit, total)));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect([...asked].sort((a, b) => a - b)).toEqual(pages);
    },
  );

  it('limit 0 resolves to [] without a request', async () => {
    const { asked, sdk } = paged();
    expect(await sdk.journals.papers(1).toArray({ limit: 0 })).toEqual([]);
    expect(asked).toEqual([]);
  });

  it.each([
    ['missing', undefined],
    ['no limit', {}],
    ['-1', { limit: -1 }],
    ['NaN', { limit: Number.NaN }],
    ['1.5', { limit: 1.5 }],
    ['-Infinity', { limit: Number.NEGATIVE_INFINITY }],
    ["'10'", { limit: '10' }],
  ])('limit %s → a rejected ConfigurationError, nothing sent', async (_label, options) => {
    const { asked, sdk } = paged();
    const pages = sdk.journals.papers(1);
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = pages.toArray(options as { limit: number });
    }).not.toThrow();
    const error = await rejection(result!);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('limit');
    expect(asked).toEqual([]);
  });

  it('refuses a name it does not take (a misspelt limit), sending nothing, as every options object does', async () => {
    const { asked, sdk } = paged();
    const error = await rejection(sdk.journals.papers(1).toArray({ limit: 5, [TEST_KEY]: 10 } as never));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: 'options', message: 'toArray takes one option, { limit }' });
    // The name refused is not quoted: it may be the key pasted in the wrong place.
    expect(inspect(error)).not.toContain(TEST_KEY);
    expect(asked).toEqual([]);
  });

  it.each([
    ['a bare count', 5, 'got 5'],
    ['null', null, 'got null'],
    ['a string, unquoted (it may be the key)', TEST_KEY, 'got a string'],
  ])(
    'refuses %s in place of { limit }, saying what it got, sending nothing',
    async (_label, options, got) => {
      const { asked, sdk } = paged();
      const error = await rejection(sdk.journals.papers(1).toArray(options as never));
      expect(error).toBeInstanceOf(ConfigurationError);
      const message = `toArray needs { limit }: a count, or Infinity for all; ${got}`;
      expect(error).toMatchObject({ option: 'limit', message });
      expect(inspect(error)).not.toContain(TEST_KEY);
      expect(asked).toEqual([]);
    },
  );

  it('never quotes a string limit, which may be the key pasted in the wrong place', async () => {
    const { sdk } = paged();
    const error = await rejection(sdk.journals.papers(1).toArray({ limit: TEST_KEY as never }));
    expect((error as Error).message).toBe(
      'toArray needs { limit }: a count, or Infinity for all; got a string',
    );
    expect(inspect(error)).not.toContain(TEST_KEY);
  });
});
