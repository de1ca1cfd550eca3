// The journals resource: list, get and score, their requests and the bodies they accept or refuse.
// journals.papers: journals-papers.test.ts; arbitrary arguments: journals-arbitrary.test.ts.
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Journal,
  type JournalProfile,
  ResponseValidationError,
  type ScoreHistory,
} from '../../src/index.js';
import { expectRefusedResponse, refusals, rejection, target } from '../helpers/calls.js';
import { BASE, journalProfile, json, sequence, testClient, useMsw } from '../support.js';
import { badIds, score } from './fixtures.js';

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

const { expectRefused } = refusals(server);

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
