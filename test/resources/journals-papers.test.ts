// journals.papers: its request, the Page it resolves to, the pages walked, and what it refuses.
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidParameterError, type JournalPaper, Page, ResponseValidationError } from '../../src/index.js';
import { drain, refusals, rejection, target } from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';
import { badIds } from './fixtures.js';

const server = useMsw();

const paper = { id: 9, title: 'On tests', authors: 'A. Author, B. Author', year: 2021, citations: 12 };

const { catchAll, expectRefused } = refusals(server);

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
