import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Author,
  type AuthorProfile,
  InvalidParameterError,
  Page,
  ResponseValidationError,
} from '../../src/index.js';
import {
  anyValue as any,
  drain,
  expectRefusedResponse,
  expectSentOrRefused,
  recordingClient,
  refusals,
  rejection,
  target,
} from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';
import { badIds } from './fixtures.js';

const server = useMsw();

const author = {
  id: 7,
  name: 'Ada Author',
  affil: 'University of Tests',
  total_papers: 12,
  total_cites: 340,
};
const profile = {
  id: 7,
  name: 'Ada Author',
  orcid: '0000-0002-1825-0097',
  affil: 'University of Tests',
  h_index: 9,
  papers: [{ id: 1, title: 'On tests' }],
};

const { catchAll, expectRefused } = refusals(server);

describe('authors.list', () => {
  it('sends every parameter in order and resolves to a typed Page', async () => {
    const { handler, seen } = sequence('/authors', [() => json({ data: [author], total: 31, next: null })]);
    server.use(handler);
    const page = await testClient().authors.list({
      q: 'ada',
      country_id: 3,
      field_id: 4,
      sort: 'h_index',
      page: 2,
    });
    expectTypeOf(page).toEqualTypeOf<Page<Author>>();
    expect(seen).toHaveLength(1);
    expect(target(seen[0]!)).toBe('/api/v1/authors?q=ada&country_id=3&field_id=4&sort=h_index&page=2');
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([author]);
    expect(page.total).toBe(31);
    expect(page.page).toBe(2);
  });

  it('starts at page 1; undefined parameters are not sent, unknown ones (per_page included) refused', async () => {
    const { handler, seen } = sequence('/authors', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().authors.list();
    await testClient().authors.list({
      q: undefined,
      country_id: undefined,
      field_id: undefined,
      sort: undefined,
    });
    await testClient().authors.list({ field_id: 4 });
    expect(seen.map(target)).toEqual([
      '/api/v1/authors?page=1',
      '/api/v1/authors?page=1',
      '/api/v1/authors?field_id=4&page=1',
    ]);
    await expectRefused(() => testClient().authors.list({ field_id: 4, per_page: 50 } as never), 'per_page');
  });

  it('percent-encodes q so the server reads it back unchanged; unknown sort values go out', async () => {
    const q = "O'Brien & Søn / co?#%";
    const { handler, seen } = sequence('/authors', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    await testClient().authors.list({ q, sort: 'made-up' });
    const params = new URL(seen[0]!.url).searchParams;
    expect(params.get('q')).toBe(q);
    expect(params.get('sort')).toBe('made-up');
  });

  it('keeps extra fields of each author', async () => {
    server.use(
      http.get(`${BASE}/authors`, () => json({ data: [{ ...author, orcid: 'x', rank: 1 }], total: 1 })),
    );
    const page = await testClient().authors.list();
    expect(page.data).toEqual([{ ...author, orcid: 'x', rank: 1 }]);
  });

  it('walks every page with for await, keeping the filters', async () => {
    const { handler, seen } = sequence('/authors', [
      () => json({ data: [author, { ...author, id: 8 }], total: 3 }),
      () => json({ data: [{ ...author, id: 9 }], total: 3 }),
    ]);
    server.use(handler);
    const all = await drain(testClient().authors.list({ country_id: 3 }));
    expect(all.map((a) => a.id)).toEqual([7, 8, 9]);
    expect(seen.map(target)).toEqual([
      '/api/v1/authors?country_id=3&page=1',
      '/api/v1/authors?country_id=3&page=2',
    ]);
  });

  it.each<[string, unknown, string]>([
    ['total_cites: 1.5', { data: [{ ...author, total_cites: 1.5 }], total: 1 }, 'data.0.total_cites'],
    ["total_papers: '12'", { data: [{ ...author, total_papers: '12' }], total: 1 }, 'data.0.total_papers'],
    ['affil: null', { data: [{ ...author, affil: null }], total: 1 }, 'data.0.affil'],
    ['name missing', { data: [{ ...author, name: undefined }], total: 1 }, 'data.0.name'],
    ['an element that is a string', { data: ['Ada'], total: 1 }, 'data.0'],
    ['total: -1', { data: [], total: -1 }, 'total'],
    ["total: '3'", { data: [], total: '3' }, 'total'],
  ])('refuses a page with %s', async (_label, body, path) => {
    server.use(http.get(`${BASE}/authors`, () => json(body)));
    const error = await rejection(testClient().authors.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  const refusals: Array<[string, Record<string, unknown>]> = [
    ['q', { q: 5 }],
    ['q', { q: null }],
    ['q', { q: '\uD800' }],
    ['sort', { sort: true }],
    ['sort', { sort: 'a\uDFFF' }],
    ['country_id', { country_id: 1.5 }],
    ['country_id', { country_id: '3' }],
    ['country_id', { country_id: null }],
    ['field_id', { field_id: 0.5 }],
    ['field_id', { field_id: Number.NaN }],
    ['field_id', { field_id: 2 ** 53 }],
    ['page', { page: 0 }],
    ['page', { page: 1.5 }],
    ['page', { page: '2' }],
  ];
  it.each(refusals)('refuses %s in %o before sending, awaited and walked', async (name, params) => {
    await expectRefused(() => testClient().authors.list(params as never), name);
    const seen = catchAll();
    const error = await rejection(drain(testClient().authors.list(params as never)));
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(name);
    expect(seen).toHaveLength(0);
  });

  it.each<[string, unknown]>([
    ["a string 'ada'", 'ada'],
    ['null', null],
    ['an array', []],
    ['a boolean', true],
  ])('refuses params that are %s', async (_label, params) => {
    await expectRefused(() => testClient().authors.list(params as never), 'params', /parameters/);
  });
});

describe('authors.get', () => {
  it('GETs /authors/{id} and returns the typed profile, extra fields kept', async () => {
    const { handler, seen } = sequence('/authors/7', [() => json({ ...profile, country: 'NZ' })]);
    server.use(handler);
    const result = await testClient().authors.get(7);
    expectTypeOf(result).toEqualTypeOf<AuthorProfile>();
    expect(target(seen[0]!)).toBe('/api/v1/authors/7');
    expect(result).toEqual({ ...profile, country: 'NZ' });
  });

  it('accepts papers elements of any shape, untouched', async () => {
    const papers = [
      42,
      '10.1000/abc',
      null,
      false,
      [1, [2]],
      { id: 'x', title: 5, odd: { deep: [null, 'y'] } },
      {},
      { id: 1, title: 'On tests', authors: 'A', doi: '10.1/x', year: 2021, citations: 3 },
    ];
    server.use(http.get(`${BASE}/authors/7`, () => json({ ...profile, papers })));
    expect((await testClient().authors.get(7)).papers).toEqual(papers);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["h_index: '9'", { h_index: '9' }, 'h_index'],
    ['h_index: 9.5', { h_index: 9.5 }, 'h_index'],
    ['orcid: null', { orcid: null }, 'orcid'],
    ['papers: {} (not an array)', { papers: {} }, 'papers'],
    ['papers missing', { papers: undefined }, 'papers'],
    ["id: '7'", { id: '7' }, 'id'],
  ])('refuses a profile with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/authors/7`, () => json({ ...profile, ...patch })));
    await expectRefusedResponse(testClient().authors.get(7), [path]);
  });

  it.each(badIds)('refuses id %s before sending', async (_label, id) => {
    await expectRefused(() => testClient().authors.get(id as number), 'id');
  });
});

describe('authors: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  const fakeApi = () =>
    recordingClient(server, (url) => (url.pathname === '/api/v1/authors' ? { data: [], total: 0 } : profile));

  const isId = (v: unknown) => Number.isSafeInteger(v);
  const isPage = (v: unknown) => isId(v) && (v as number) >= 1;
  const loneSurrogate = /[\uD800-\uDFFF]/u;
  const isText = (v: unknown) => v === undefined || (typeof v === 'string' && !loneSurrogate.test(v));
  const rules: Record<string, (v: unknown) => boolean> = {
    q: isText,
    country_id: (v) => v === undefined || isId(v),
    field_id: (v) => v === undefined || isId(v),
    sort: isText,
    page: (v) => v === undefined || isPage(v),
  };

  it('list with any params', async () => {
    const { calls, sdk } = fakeApi();
    const text = fc.oneof(any, fc.string({ unit: 'binary' }));
    const id = fc.oneof(any, fc.integer({ min: -1, max: 1_000 }));
    const params = fc.oneof(
      any,
      fc.record(
        {
          q: text,
          country_id: id,
          field_id: id,
          sort: text,
          // `page: null` is left to the journals test of the same rule.
          page: id.filter((v) => v !== null),
          per_page: any,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        await expectSentOrRefused(calls, '/api/v1/authors', p, rules, () => sdk.authors.list(p as never));
      }),
      { numRuns: 2_000 },
    );
  });

  it('get with any id', async () => {
    const { calls, sdk } = fakeApi();
    await fc.assert(
      fc.asyncProperty(fc.oneof(any, fc.integer(), fc.double()), async (id) => {
        const before = calls.length;
        const error = await rejection(sdk.authors.get(id as number));
        if (error === undefined) {
          expect(isId(id)).toBe(true);
          expect(calls.at(-1)?.pathname).toBe(`/api/v1/authors/${id}`);
          expect(calls.length).toBe(before + 1);
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(isId(id)).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
