// The papers resource: papers.search, its parameters sent in order and encoded, the pages walked, and
// what it refuses. papers.get: papers-get.test.ts; arbitrary arguments: papers-arbitrary.test.ts.
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidParameterError, Page, type PaperSummary } from '../../src/index.js';
import { drain, expectRefusedResponse, refusals, rejection, target } from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';
import { paper } from './fixtures.js';

const server = useMsw();

const { catchAll, expectRefused } = refusals(server);

describe('papers.search', () => {
  it('sends every parameter in order and resolves to a typed Page', async () => {
    const { handler, seen } = sequence('/papers', [() => json({ data: [paper], total: 51 })]);
    server.use(handler);
    const page = await testClient().papers.search({
      q: 'graphene',
      year: 2021,
      oa: true,
      sort: 'citations',
      page: 2,
      per_page: 50,
    });
    expectTypeOf(page).toEqualTypeOf<Page<PaperSummary>>();
    expect(seen).toHaveLength(1);
    expect(target(seen[0]!)).toBe(
      '/api/v1/papers?q=graphene&year=2021&oa=true&sort=citations&page=2&per_page=50',
    );
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([paper]);
    expect(page.total).toBe(51);
    expect(page.page).toBe(2);
  });

  it('starts at page 1; undefined parameters are not sent, unknown ones refused', async () => {
    const { handler, seen } = sequence('/papers', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().papers.search();
    await testClient().papers.search({});
    await testClient().papers.search({
      q: undefined,
      year: undefined,
      oa: undefined,
      sort: undefined,
      page: undefined,
      per_page: undefined,
    });
    expect(seen.map(target)).toEqual([
      '/api/v1/papers?page=1',
      '/api/v1/papers?page=1',
      '/api/v1/papers?page=1',
    ]);
    await expectRefused(() => testClient().papers.search({ q: 'x', country_id: 3 } as never), 'country_id');
  });

  it('sends oa: false, year 0 and negative years', async () => {
    const { handler, seen } = sequence('/papers', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().papers.search({ oa: false, year: 0 });
    await testClient().papers.search({ year: -350 });
    expect(seen.map(target)).toEqual([
      '/api/v1/papers?year=0&oa=false&page=1',
      '/api/v1/papers?year=-350&page=1',
    ]);
  });

  it('percent-encodes q and sort so the server reads them back unchanged', async () => {
    const q = 'a&b=c d+e/f?g#h%i 😀 ü ';
    const sort = '-year,citations&x=1';
    const { handler, seen } = sequence('/papers', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().papers.search({ q, sort });
    const params = new URL(seen[0]!.url).searchParams;
    expect([...params.keys()]).toEqual(['q', 'sort', 'page']);
    expect(params.get('q')).toBe(q);
    expect(params.get('sort')).toBe(sort);
  });

  it.each(['relevance', 'made-up-order', '', 'DROP TABLE'])(
    'sends an unknown sort %j to the server',
    async (sort) => {
      const { handler, seen } = sequence('/papers', [() => json({ data: [], total: 0 })]);
      server.use(handler);
      await testClient().papers.search({ sort });
      expect(new URL(seen[0]!.url).searchParams.get('sort')).toBe(sort);
    },
  );

  it('accepts result elements of any shape, untouched', async () => {
    const data = [
      1,
      'two',
      null,
      true,
      [1, 'a'],
      { id: 'not-a-number', title: 5, weird: { nested: [null] } },
      {},
      paper,
    ];
    server.use(http.get(`${BASE}/papers`, () => json({ data, total: data.length, cursor: 'abc' })));
    const page = await testClient().papers.search({ q: 'x' });
    expect(page.data).toEqual(data);
    expect(page.total).toBe(data.length);
  });

  it.each<[string, unknown, string]>([
    ["total: '1'", { data: [], total: '1' }, 'total'],
    ['total: 1.5', { data: [], total: 1.5 }, 'total'],
    ['total: -1', { data: [], total: -1 }, 'total'],
    ['total missing', { data: [] }, 'total'],
    ['data: {}', { data: {}, total: 0 }, 'data'],
    ['data missing', { total: 0 }, 'data'],
  ])('refuses a page with %s', async (_label, body, path) => {
    server.use(http.get(`${BASE}/papers`, () => json(body)));
    await expectRefusedResponse(testClient().papers.search({ q: 'x' }), [path]);
  });

  it('walks every page, keeping the other parameters', async () => {
    const { handler, seen } = sequence('/papers', [
      () => json({ data: [{ n: 1 }, { n: 2 }], total: 3 }),
      () => json({ data: [{ n: 3 }], total: 3 }),
    ]);
    server.use(handler);
    const all = await drain(testClient().papers.search({ q: 'graphene', oa: true, per_page: 2 }));
    expect(all).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(seen.map(target)).toEqual([
      '/api/v1/papers?q=graphene&oa=true&page=1&per_page=2',
      '/api/v1/papers?q=graphene&oa=true&page=2&per_page=2',
    ]);
  });

  const refusals: Array<[string, Record<string, unknown>]> = [
    ['q', { q: 5 }],
    ['q', { q: null }],
    ['q', { q: ['graphene'] }],
    ['q', { q: 'ok\uD800' }],
    ['q', { q: '\uDC00' }],
    ['sort', { sort: 1 }],
    ['sort', { sort: { by: 'year' } }],
    ['sort', { sort: '\uD800year' }],
    ['year', { year: 2020.5 }],
    ['year', { year: '2020' }],
    ['year', { year: Number.NaN }],
    ['year', { year: 2 ** 53 }],
    ['oa', { oa: 'true' }],
    ['oa', { oa: 1 }],
    ['oa', { oa: null }],
    ['page', { page: 0 }],
    ['page', { page: 1.5 }],
    ['page', { page: '2' }],
    ['page', { page: -1 }],
    ['per_page', { per_page: 0 }],
    ['per_page', { per_page: 1.5 }],
    ['per_page', { per_page: '2' }],
    ['per_page', { per_page: null }],
  ];
  it.each(refusals)('refuses %s in %o before sending, awaited and walked', async (name, params) => {
    await expectRefused(() => testClient().papers.search(params as never), name);
    const seen = catchAll();
    const error = await rejection(drain(testClient().papers.search(params as never)));
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(name);
    const pages = await rejection(
      drain(
        testClient()
          .papers.search(params as never)
          .pages(),
      ),
    );
    expect(pages).toBeInstanceOf(InvalidParameterError);
    expect(seen).toHaveLength(0);
  });

  it('accepts a q with well-formed surrogate pairs', async () => {
    const { handler, seen } = sequence('/papers', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().papers.search({ q: '😀𝔘' });
    expect(new URL(seen[0]!.url).searchParams.get('q')).toBe('😀𝔘');
  });

  it.each<[string, unknown]>([
    ["a string 'q=graphene'", 'q=graphene'],
    ['null', null],
    ['an array', [['q', 'x']]],
    ['a number', 1],
  ])('refuses params that are %s', async (_label, params) => {
    await expectRefused(() => testClient().papers.search(params as never), 'params', /parameters/);
  });
});
