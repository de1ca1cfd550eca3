import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  InvalidParameterError,
  type Journal,
  type JournalPaper,
  type JournalProfile,
  Page,
  ResponseValidationError,
  type ScoreHistory,
} from '../../src/index.js';
import {
  anyValue as any,
  drain,
  expectRefusedResponse,
  recordingClient,
  refusals,
  rejection,
  target,
} from '../helpers/calls.js';
import { BASE, journalProfile, json, sequence, testClient, useMsw } from '../support.js';

const server = useMsw();

const journal = {
  id: 1,
  name: 'Journal of Tests',
  issn: '1234-5678',
  metric_score: 80,
  quartile: 'Q1',
  country_id: 3,
  field_id: 4,
  total_papers: 10,
  total_cites: 100,
};
const paper = { id: 9, title: 'On tests', authors: 'A. Author, B. Author', year: 2021, citations: 12 };
const score = {
  current: 87,
  quartile: 'Q1',
  history: [
    { date: '2024-02-29', score: 87 },
    { date: '2023-12-31', score: 80 },
  ],
};

const { catchAll, expectRefused } = refusals(server);

const badIds: Array<[string, unknown]> = [
  ['1.5', 1.5],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ["'7'", '7'],
  ['2**53', 2 ** 53],
  ['null', null],
  ['undefined', undefined],
];

describe('journals.list', () => {
  it('GETs /journals with no query and returns the typed list, extra fields kept', async () => {
    const { handler, seen } = sequence('/journals', [
      () => json([journal, { ...journal, id: 2, impact: 3.2 }]),
    ]);
    server.use(handler);
    const journals = await testClient().journals.list();
    expectTypeOf(journals).toEqualTypeOf<Journal[]>();
    expect(seen).toHaveLength(1);
    expect(target(seen[0]!)).toBe('/api/v1/journals');
    expect(journals).toEqual([journal, { ...journal, id: 2, impact: 3.2 }]);
  });

  it('accepts an empty list', async () => {
    server.use(http.get(`${BASE}/journals`, () => json([])));
    expect(await testClient().journals.list()).toEqual([]);
  });

  it.each(['Q5', 'N/A', '', 'Q1 (provisional)'])('accepts any quartile string: %j', async (quartile) => {
    server.use(http.get(`${BASE}/journals`, () => json([{ ...journal, quartile }])));
    const [first] = await testClient().journals.list();
    expect(first?.quartile).toBe(quartile);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['quartile: 1', { quartile: 1 }, '0.quartile'],
    ['metric_score: 80.5', { metric_score: 80.5 }, '0.metric_score'],
    ['issn: 12345678 (a number)', { issn: 12345678 }, '0.issn'],
    ["total_cites: '100'", { total_cites: '100' }, '0.total_cites'],
    ['country_id: null', { country_id: null }, '0.country_id'],
    ['field_id missing', { field_id: undefined }, '0.field_id'],
  ])('refuses an element with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/journals`, () => json([{ ...journal, ...patch }])));
    const error = await rejection(testClient().journals.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it('refuses a body that is not an array', async () => {
    server.use(http.get(`${BASE}/journals`, () => json({ data: [journal], total: 1 })));
    await expect(testClient().journals.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

describe('journals.get', () => {
  it('GETs /journals/{id} and returns the profile, extra fields kept', async () => {
    const { handler, seen } = sequence('/journals/42', [() => json({ ...journalProfile, impact: 3.2 })]);
    server.use(handler);
    const profile = await testClient().journals.get(42);
    expectTypeOf(profile).toEqualTypeOf<JournalProfile>();
    expect(target(seen[0]!)).toBe('/api/v1/journals/42');
    expect(profile).toEqual({ ...journalProfile, impact: 3.2 });
  });

  it('sends the largest safe integer id as is', async () => {
    const id = Number.MAX_SAFE_INTEGER;
    const { handler, seen } = sequence(`/journals/${id}`, [() => json({ ...journalProfile, id })]);
    server.use(handler);
    expect((await testClient().journals.get(id)).id).toBe(id);
    expect(target(seen[0]!)).toBe('/api/v1/journals/9007199254740991');
  });

  it.each(['Q5', 'N/A'])('accepts quartile %j', async (quartile) => {
    server.use(http.get(`${BASE}/journals/42`, () => json({ ...journalProfile, quartile })));
    expect((await testClient().journals.get(42)).quartile).toBe(quartile);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["oa: 'yes'", { oa: 'yes' }, 'oa'],
    ['oa: 1', { oa: 1 }, 'oa'],
    ['description: null', { description: null }, 'description'],
    ['quartile: 1', { quartile: 1 }, 'quartile'],
    ["id: '42'", { id: '42' }, 'id'],
  ])('refuses a profile with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/journals/42`, () => json({ ...journalProfile, ...patch })));
    await expectRefusedResponse(testClient().journals.get(42), [path]);
  });

  it.each(badIds)('refuses id %s before sending', async (_label, id) => {
    await expectRefused(() => testClient().journals.get(id as number), 'id');
  });

  it.each([0, -7])('sends id %d: the document says an id is an integer, no more', async (id) => {
    server.use(http.get(`${BASE}/journals/${id}`, () => json({ ...journalProfile, id })));
    expect((await testClient().journals.get(id)).id).toBe(id);
  });
});

describe('journals.papers', () => {
  it('GETs /journals/{id}/papers?page&per_page and resolves to a Page', async () => {
    const { handler, seen } = sequence('/journals/42/papers', [
      () => json({ data: [paper, { ...paper, id: 10, doi: '10.1/x' }], total: 120, extra: true }),
    ]);
    server.use(handler);
    const page = await testClient().journals.papers(42, { page: 2, per_page: 50 });
    expectTypeOf(page).toEqualTypeOf<Page<JournalPaper>>();
    expect(target(seen[0]!)).toBe('/api/v1/journals/42/papers?page=2&per_page=50');
    expect(page).toBeInstanceOf(Page);
    expect(page.data).toEqual([paper, { ...paper, id: 10, doi: '10.1/x' }]);
    expect(page.total).toBe(120);
    expect(page.page).toBe(2);
  });

  it('starts at page 1 and sends no per_page when none is given; unknown keys are refused', async () => {
    const { handler, seen } = sequence('/journals/42/papers', [() => json({ data: [], total: 0 })]);
    server.use(handler);
    const page = await testClient().journals.papers(42);
    expect(page.page).toBe(1);
    await testClient().journals.papers(42, { per_page: undefined });
    expect(seen.map(target)).toEqual([
      '/api/v1/journals/42/papers?page=1',
      '/api/v1/journals/42/papers?page=1',
    ]);
    await expectRefused(
      () => testClient().journals.papers(42, { per_page: undefined, sort: 'year' } as never),
      'sort',
    );
  });

  it('walks every page with for await, keeping per_page', async () => {
    const { handler, seen } = sequence('/journals/42/papers', [
      () => json({ data: [paper, { ...paper, id: 10 }], total: 3 }),
      () => json({ data: [{ ...paper, id: 11 }], total: 3 }),
    ]);
    server.use(handler);
    const papers = await drain(testClient().journals.papers(42, { per_page: 2 }));
    expect(papers.map((p) => p.id)).toEqual([9, 10, 11]);
    expect(seen.map(target)).toEqual([
      '/api/v1/journals/42/papers?page=1&per_page=2',
      '/api/v1/journals/42/papers?page=2&per_page=2',
    ]);
  });

  it.each<[string, unknown, string]>([
    ["year: '2021'", { data: [{ ...paper, year: '2021' }], total: 1 }, 'data.0.year'],
    ['citations: 1.5', { data: [{ ...paper, citations: 1.5 }], total: 1 }, 'data.0.citations'],
    ['title missing', { data: [{ ...paper, title: undefined }], total: 1 }, 'data.0.title'],
    ['an element that is a number', { data: [7], total: 1 }, 'data.0'],
    ["total: '1'", { data: [paper], total: '1' }, 'total'],
    ['total: -1', { data: [paper], total: -1 }, 'total'],
    ['data: null', { data: null, total: 0 }, 'data'],
  ])('refuses a page with %s', async (_label, body, path) => {
    server.use(http.get(`${BASE}/journals/42/papers`, () => json(body)));
    const error = await rejection(testClient().journals.papers(42));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it.each(badIds)('refuses id %s before sending, awaited and walked', async (_label, id) => {
    await expectRefused(() => testClient().journals.papers(id as number), 'id');
    const error = await rejection(drain(testClient().journals.papers(id as number)));
    expect(error).toBeInstanceOf(InvalidParameterError);
  });

  const badPages: Array<[string, unknown]> = [
    ['0', 0],
    ['-1', -1],
    ['1.5', 1.5],
    ["'2'", '2'],
    ['NaN', Number.NaN],
  ];
  for (const name of ['page', 'per_page'] as const) {
    it.each(badPages)(`refuses ${name} %s before sending, awaited and walked`, async (_label, value) => {
      await expectRefused(() => testClient().journals.papers(42, { [name]: value } as never), name);
      const seen = catchAll();
      const error = await rejection(drain(testClient().journals.papers(42, { [name]: value } as never)));
      expect(error).toBeInstanceOf(InvalidParameterError);
      expect((error as InvalidParameterError).parameter).toBe(name);
      expect(seen).toHaveLength(0);
    });
  }

  it.each(['page', 'per_page'])(
    'refuses %s: null like any other non-integer, not as "absent"',
    async (name) => {
      await expectRefused(() => testClient().journals.papers(42, { [name]: null } as never), name);
    },
  );

  it.each<[string, unknown]>([
    ["a string 'page=2'", 'page=2'],
    ['null', null],
    ['an array', [1]],
    ['a number', 2],
  ])('refuses params that are %s', async (_label, params) => {
    await expectRefused(() => testClient().journals.papers(42, params as never), 'params', /parameters/);
  });
});

describe('journals.score', () => {
  it('GETs /journals/{id}/score and returns the history, extra fields kept', async () => {
    const body = { ...score, history: [{ ...score.history[0], note: 'x' }, score.history[1]], trend: 'up' };
    const { handler, seen } = sequence('/journals/42/score', [() => json(body)]);
    server.use(handler);
    const history = await testClient().journals.score(42);
    expectTypeOf(history).toEqualTypeOf<ScoreHistory>();
    expect(target(seen[0]!)).toBe('/api/v1/journals/42/score');
    expect(history).toEqual(body);
  });

  it.each(['2024-02-29', '2000-02-29', '1999-12-31', '2023-04-30'])('accepts the date %s', async (date) => {
    server.use(
      http.get(`${BASE}/journals/42/score`, () => json({ ...score, history: [{ date, score: 1 }] })),
    );
    expect((await testClient().journals.score(42)).history[0]?.date).toBe(date);
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '1900-02-29',
    '2024-1-05',
    '2024-01-5',
    '2024-13-01',
    '2024-04-31',
    '2024-01-05T00:00:00Z',
    '20240105',
    ' 2024-01-05',
  ])('refuses the date %j', async (date) => {
    server.use(
      http.get(`${BASE}/journals/42/score`, () => json({ ...score, history: [{ date, score: 1 }] })),
    );
    const error = await rejection(testClient().journals.score(42));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((issue) => issue.path.join('.'))).toEqual([
      'history.0.date',
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['score: 1.5', { history: [{ date: '2024-01-05', score: 1.5 }] }, 'history.0.score'],
    ["current: '87'", { current: '87' }, 'current'],
    ['quartile: null', { quartile: null }, 'quartile'],
    ['history: {}', { history: {} }, 'history'],
  ])('refuses a history with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/journals/42/score`, () => json({ ...score, ...patch })));
    await expectRefusedResponse(testClient().journals.score(42), [path]);
  });

  it.each(badIds)('refuses id %s before sending', async (_label, id) => {
    await expectRefused(() => testClient().journals.score(id as number), 'id');
  });
});

describe('journals: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  /** Every route answered with a valid, minimal body. */
  const fakeApi = () =>
    recordingClient(server, ({ pathname }) => {
      if (pathname.endsWith('/papers')) return { data: [], total: 0 };
      if (pathname.endsWith('/score')) return score;
      return pathname === '/api/v1/journals' ? [] : journalProfile;
    });

  const isId = (value: unknown) => Number.isSafeInteger(value);
  const anyId = fc.oneof(any, fc.integer(), fc.integer({ min: 1 }), fc.double());

  it('get, score and papers with any id', async () => {
    const { calls, sdk } = fakeApi();
    const methods = [
      [(id: number) => sdk.journals.get(id), (id: unknown) => `/api/v1/journals/${id}`],
      [(id: number) => sdk.journals.score(id), (id: unknown) => `/api/v1/journals/${id}/score`],
      [(id: number) => sdk.journals.papers(id), (id: unknown) => `/api/v1/journals/${id}/papers`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(anyId, fc.constantFrom(0, 1, 2), async (id, which) => {
        const [call, path] = methods[which];
        const before = calls.length;
        const error = await rejection(call(id as number));
        if (error === undefined) {
          expect(isId(id)).toBe(true);
          expect(calls.length).toBe(before + 1);
          expect(calls.at(-1)?.pathname).toBe(path(id));
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(isId(id)).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('papers with any params', async () => {
    const { calls, sdk } = fakeApi();
    const isCount = (value: unknown) => value === undefined || (isId(value) && (value as number) >= 1);
    // `page: null` is left to its own test above.
    const anyCount = fc.oneof(any, fc.integer({ min: -2, max: 1_000 })).filter((v) => v !== null);
    const params = fc.oneof(
      any,
      fc.record({ page: anyCount, per_page: anyCount, other: any }, { requiredKeys: [] }),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const before = calls.length;
        const error = await rejection(sdk.journals.papers(42, p as never));
        const valid =
          p === undefined ||
          (typeof p === 'object' &&
            p !== null &&
            !Array.isArray(p) &&
            Object.keys(p).every((name) => name === 'page' || name === 'per_page') &&
            isCount((p as Record<string, unknown>).page) &&
            isCount((p as Record<string, unknown>).per_page));
        if (error === undefined) {
          expect(valid).toBe(true);
          expect(calls.length).toBe(before + 1);
          const url = calls.at(-1)!;
          const record = (p ?? {}) as Record<string, unknown>;
          expect(url.pathname).toBe('/api/v1/journals/42/papers');
          expect(url.searchParams.get('page')).toBe(String(record.page ?? 1));
          expect(url.searchParams.get('per_page')).toBe(
            record.per_page === undefined ? null : String(record.per_page),
          );
          expect([...url.searchParams.keys()].every((key) => key === 'page' || key === 'per_page')).toBe(
            true,
          );
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(valid).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
