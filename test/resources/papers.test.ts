import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { routeTo } from '../../src/core/endpoint.js';
import { hasUnsafe } from '../../src/core/escape.js';
import { checkDoi } from '../../src/core/params.js';
import { InvalidParameterError, Page, type Paper, type PaperSummary } from '../../src/index.js';
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

const server = useMsw();

const paper = {
  id: 9,
  title: 'On tests',
  authors: 'A. Author, B. Author',
  doi: '10.1000/abc',
  year: 2021,
  citations: 12,
  abstract: 'We test.',
};

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

describe('papers.get', () => {
  it('GETs /papers/{doi} and returns the typed paper, extra fields kept', async () => {
    const { handler, seen } = sequence('/papers/*', [() => json({ ...paper, pdf: 'https://x/y.pdf' })]);
    server.use(handler);
    const result = await testClient().papers.get('10.1000/abc');
    expectTypeOf(result).toEqualTypeOf<Paper>();
    expect(target(seen[0]!)).toBe('/api/v1/papers/10.1000%2Fabc');
    expect(result).toEqual({ ...paper, pdf: 'https://x/y.pdf' });
  });

  const dois = [
    '10.1000/abc/def',
    '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K',
    '10.5555/üñí-ç',
    '10.1000/a?b#c%d&e=f',
    '10.1000/with some  spaces',
    '10.1000/../../journals/1',
    '10.1000/..',
    '10.1000/%2F%3F%23',
    '10.1000/a+b;c:d@e$f,g',
    '10.1000/😀\u0301',
    '10.12345.6/x/y?z',
  ];
  it.each(dois)('sends %j as one path segment that decodes back to it', async (doi) => {
    const { handler, seen } = sequence('/papers/*', [() => json({ ...paper, doi })]);
    server.use(handler);
    const result = await testClient().papers.get(doi);
    expect(result.doi).toBe(doi);
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!.url);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    const segments = url.pathname.split('/');
    expect(segments).toHaveLength(5);
    expect(segments.slice(0, 4)).toEqual(['', 'api', 'v1', 'papers']);
    expect(decodeURIComponent(segments[4]!)).toBe(doi);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["year: '2021'", { year: '2021' }, 'year'],
    ['citations: 1.5', { citations: 1.5 }, 'citations'],
    ['abstract: null', { abstract: null }, 'abstract'],
    ['doi missing', { doi: undefined }, 'doi'],
  ])('refuses a paper with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/papers/*`, () => json({ ...paper, ...patch })));
    await expectRefusedResponse(testClient().papers.get('10.1000/abc'), [path]);
  });

  it.each<[string, unknown]>([
    ["''", ''],
    ["'abc'", 'abc'],
    ["'11.1000/x'", '11.1000/x'],
    ["'10.1000'", '10.1000'],
    ["'10.1000/'", '10.1000/'],
    ["' 10.1000/x'", ' 10.1000/x'],
    ["'10. 1000/x'", '10. 1000/x'],
    ["'10./x'", '10./x'],
    ["'10.1/\\uD800'", '10.1/\uD800'],
    ["'10.1\\uDC00/x'", '10.1\uDC00/x'],
    ['123', 123],
    ['10.1 (a number)', 10.1],
    ['null', null],
    ['undefined', undefined],
    ['an object', { doi: '10.1000/x' }],
  ])('refuses the DOI %s before sending', async (_label, doi) => {
    await expectRefused(() => testClient().papers.get(doi as string), 'doi');
  });
});

describe('routeTo keeps any DOI inside its path segment', () => {
  const registrant = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((r) => !r.includes('/') && !/\s/u.test(r) && !hasUnsafe(r));
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.constantFrom('/', '?', '#', '%', '&', '=', ' ', '..', '%2F', '%', '\\', '+', ';', '\u3000'),
  );
  // A DOI has no character a terminal may act on and does not end in white space (checkDoi refuses both).
  const suffix = fc
    .array(piece, { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join(''))
    .filter((s) => s.length > 0 && !/\s$/u.test(s) && !hasUnsafe(s));
  const doi = fc.tuple(registrant, suffix).map(([r, s]) => `10.${r}/${s}`);

  it('encodes / ? # away, decodes back to the DOI, and yields exactly four path segments', () => {
    // Plain checks rather than expect(): 10 000 runs must stay fast.
    fc.assert(
      fc.property(doi, (value) => {
        const encoded = routeTo(endpoints.papers.get, { doi: value }).path.slice('/papers/'.length);
        if (/[/?#]/.test(encoded) || decodeURIComponent(encoded) !== value) return false;
        const url = new URL(`${BASE}/papers/${encoded}`);
        const parts = url.pathname.split('/').slice(1);
        return (
          url.search === '' &&
          url.hash === '' &&
          parts.length === 4 &&
          parts[0] === 'api' &&
          parts[1] === 'v1' &&
          parts[2] === 'papers' &&
          decodeURIComponent(parts[3]!) === value
        );
      }),
      { numRuns: 10_000 },
    );
  });

  it('the DOIs of that property are ones papers.get accepts', () => {
    fc.assert(
      fc.property(doi, (value) => checkDoi(value) === value),
      { numRuns: 1_000 },
    );
  });
});

describe('papers: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  const fakeApi = () =>
    recordingClient(server, (url) => (url.pathname === '/api/v1/papers' ? { data: [], total: 0 } : paper));

  const loneSurrogate = /[\uD800-\uDFFF]/u;
  const isCount = (v: unknown) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 1);
  const isText = (v: unknown) => v === undefined || (typeof v === 'string' && !loneSurrogate.test(v));
  const rules: Record<string, (v: unknown) => boolean> = {
    q: isText,
    year: (v) => v === undefined || Number.isSafeInteger(v),
    oa: (v) => v === undefined || typeof v === 'boolean',
    sort: isText,
    page: isCount,
    per_page: isCount,
  };

  it('search with any params', async () => {
    const { calls, sdk } = fakeApi();
    const text = fc.oneof(any, fc.string({ unit: 'binary' }), fc.string());
    // `page: null` is left to the journals test of the same rule.
    const count = fc.oneof(any, fc.integer({ min: -1, max: 500 })).filter((v) => v !== null);
    const params = fc.oneof(
      any,
      fc.record(
        {
          q: text,
          year: fc.oneof(any, fc.integer(), fc.double()),
          oa: fc.oneof(any, fc.boolean()),
          sort: text,
          page: count,
          per_page: count,
          other: any,
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        await expectSentOrRefused(calls, '/api/v1/papers', p, rules, () => sdk.papers.search(p as never));
      }),
      { numRuns: 2_000 },
    );
  });

  it('get with any value', async () => {
    const { calls, sdk } = fakeApi();
    const value = fc.oneof(
      any,
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary' }).map((s) => `10.${s}`),
      fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })).map(([a, b]) => `10.${a}/${b}`),
    );
    const isDoi = (v: unknown) =>
      typeof v === 'string' &&
      /^10\.[^/\s\p{Cc}]+\/[^\p{Cc}]*[^\s\p{Cc}]$/u.test(v) &&
      !hasUnsafe(v) &&
      !loneSurrogate.test(v);
    await fc.assert(
      fc.asyncProperty(value, async (doi) => {
        const before = calls.length;
        const error = await rejection(sdk.papers.get(doi as string));
        if (error === undefined) {
          expect(isDoi(doi)).toBe(true);
          expect(calls.length).toBe(before + 1);
          const parts = calls.at(-1)!.pathname.split('/');
          expect(parts).toHaveLength(5);
          expect(decodeURIComponent(parts[4]!)).toBe(doi);
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect((error as InvalidParameterError).parameter).toBe('doi');
          expect(isDoi(doi)).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
