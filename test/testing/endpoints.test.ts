import { describe, expect, it } from 'vitest';
import { MOCK_DOIS } from '../../src/testing/index.js';
import { get, ok, type Page, smallApi } from './helpers.js';

const api = smallApi();
const { dataset } = api;

const keysOf = (value: unknown) => Object.keys(value as object);

describe('wire shapes (API §2)', () => {
  it('GET /journals: every journal, list fields only, by id', async () => {
    const journals = await ok<Record<string, unknown>[]>(api, '/journals');
    expect(journals).toHaveLength(dataset.journals.length);
    expect(keysOf(journals[0])).toEqual([
      'id',
      'name',
      'issn',
      'metric_score',
      'quartile',
      'country_id',
      'field_id',
      'total_papers',
      'total_cites',
    ]);
    expect(journals.map((j) => j.id)).toEqual(dataset.journals.map((j) => j.id));
  });

  it('GET /journals/{id}: the full profile', async () => {
    const journal = dataset.journal(3)!;
    expect(await ok(api, '/journals/3')).toEqual({
      id: 3,
      name: journal.name,
      metric_score: journal.metric_score,
      quartile: journal.quartile,
      description: journal.description,
      oa: journal.oa,
    });
  });

  it('GET /journals/{id}/score: current, quartile and a newest-first history of integers', async () => {
    const score = await ok<{ current: number; quartile: string; history: { date: string; score: number }[] }>(
      api,
      '/journals/3/score',
    );
    expect(keysOf(score)).toEqual(['current', 'quartile', 'history']);
    expect(score.current).toBe(dataset.journal(3)!.metric_score);
    expect(score.history.length).toBeGreaterThan(3);
    expect(keysOf(score.history[0])).toEqual(['date', 'score']);
    expect(score.history.every((e) => Number.isInteger(e.score) && /^\d{4}-\d{2}-\d{2}$/.test(e.date))).toBe(
      true,
    );
    expect(score.history[0]!.date > score.history[1]!.date).toBe(true);
  });

  it('GET /journals/{id}/papers: journal papers, with the true total', async () => {
    const page = await ok<Page<Record<string, unknown>>>(api, '/journals/2/papers');
    expect(page.total).toBe(dataset.journal(2)!.total_papers);
    expect(keysOf(page.data[0])).toEqual(['id', 'title', 'authors', 'year', 'citations']);
    const ids = page.data.map((p) => p.id as number);
    expect(ids).toEqual(dataset.journalPaperIds(2).slice(0, 20));
  });

  it('GET /papers: the search element shape', async () => {
    const page = await ok<Page<Record<string, unknown>>>(api, '/papers?per_page=1');
    expect(keysOf(page.data[0])).toEqual([
      'id',
      'title',
      'authors',
      'doi',
      'year',
      'citations',
      'oa',
      'journal_id',
    ]);
    expect(typeof page.data[0]!.oa).toBe('boolean');
    expect(page.total).toBe(dataset.papers.length);
  });

  it('GET /papers/{doi}: the paper with its abstract', async () => {
    const paper = await ok(api, `/papers/${encodeURIComponent(dataset.papers[10]!.doi)}`);
    expect(keysOf(paper)).toEqual(['id', 'title', 'authors', 'doi', 'year', 'citations', 'abstract']);
    expect(paper.abstract).toBe(dataset.abstractOf(dataset.papers[10]!));
  });

  it('GET /authors and /authors/{id}: list element and profile with its papers', async () => {
    const page = await ok<Page<Record<string, unknown>>>(api, '/authors');
    expect(keysOf(page.data[0])).toEqual(['id', 'name', 'affil', 'total_papers', 'total_cites']);
    expect(page.total).toBe(dataset.authors.length);
    const author = dataset.authors.find((a) => a.total_papers > 1)!;
    const profile = await ok<Record<string, unknown> & { papers: Record<string, unknown>[] }>(
      api,
      `/authors/${author.id}`,
    );
    expect(keysOf(profile)).toEqual(['id', 'name', 'orcid', 'affil', 'h_index', 'papers']);
    expect(profile.papers.map((p) => p.id)).toEqual(author.paper_ids);
    expect(keysOf(profile.papers[0])).toEqual(['id', 'title', 'doi', 'year', 'citations']);
  });

  it('GET /subjects and /countries: counts and flags', async () => {
    const subjects = await ok<Record<string, unknown>[]>(api, '/subjects');
    expect(keysOf(subjects[0])).toEqual(['id', 'name', 'slug', 'journals', 'papers', 'citations']);
    const countries = await ok<Record<string, unknown>[]>(api, '/countries?show=all');
    expect(keysOf(countries[0])).toEqual(['id', 'name', 'flag', 'journals', 'papers', 'citations']);
    expect(countries).toHaveLength(dataset.countries.length);
  });

  it('sends every body as application/json', async () => {
    for (const path of ['/journals', '/journals/0', '/papers?page=0', '/nowhere']) {
      expect((await get(api, path)).headers.get('content-type')).toBe('application/json');
    }
  });
});

describe('pagination', () => {
  it('walks every item exactly once, and pages past the end are empty with the true total', async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const body = await ok<Page<{ id: number }>>(api, `/papers?q=climate&per_page=10&page=${page}`);
      expect(body.total).toBe(dataset.papers.filter((p) => p.title.includes('climate')).length);
      if (body.data.length === 0) break;
      seen.push(...body.data.map((p) => p.id));
    }
    expect(seen.length).toBeGreaterThan(30);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength((await ok<Page<unknown>>(api, '/papers?q=climate&page=999')).total);
  });

  it('defaults to page 1 of 20, and accepts per_page from 1 to 100', async () => {
    expect((await ok<Page<unknown>>(api, '/papers')).data).toHaveLength(20);
    expect((await ok<Page<unknown>>(api, '/papers?per_page=1')).data).toHaveLength(1);
    expect((await ok<Page<unknown>>(api, '/papers?per_page=100')).data).toHaveLength(100);
    const first = await ok<Page<{ id: number }>>(api, '/journals/1/papers?per_page=2');
    const second = await ok<Page<{ id: number }>>(api, '/journals/1/papers?per_page=2&page=2');
    expect(second.data.map((p) => p.id)).toEqual(dataset.journalPaperIds(1).slice(2, 4));
    expect(first.total).toBe(second.total);
  });

  it('gives 400 for pages and page sizes out of bounds, naming the parameter', async () => {
    for (const query of [
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page=',
      'per_page=0',
      'per_page=101',
    ]) {
      const answer = await get(api, `/papers?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'bad_request',
        message: expect.stringContaining(query.split('=')[0]!),
      });
    }
    expect((await get(api, '/journals/1/papers?per_page=500')).status).toBe(400);
  });

  it('pages authors by a fixed 20 and refuses per_page there, as the API lists none', async () => {
    expect((await ok<Page<unknown>>(api, '/authors?page=2')).data).toHaveLength(20);
    expect((await get(api, '/authors?per_page=5')).status).toBe(400);
  });
});

describe('lookups: 404 for unknown ids and DOIs, 400 for malformed ones', () => {
  it.each([
    ['/journals/999999', 'No journal with id 999999'],
    ['/journals/0/score', 'No journal with id 0'],
    ['/journals/999999/papers', 'No journal with id 999999'],
    ['/authors/999999', 'No author with id 999999'],
    [`/papers/${encodeURIComponent('10.9999/nope')}`, 'No paper with DOI 10.9999/nope'],
    ['/nowhere', 'No endpoint at /nowhere'],
    ['/journals/1/citations', 'No endpoint'],
  ])('%s → 404', async (path, message) => {
    const answer = await get(api, path);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'not_found', message: expect.stringContaining(message) });
  });

  it.each([
    '/journals/0',
    '/journals/-1',
    '/authors/-7',
    '/journals/9007199254740993',
    '/authors/99999999999999999999',
  ])('%s → 404: an integer, but no such id', async (path) => {
    expect((await get(api, path)).status).toBe(404);
  });

  it('reads a percent-encoded id as its digits', async () => {
    expect((await ok(api, '/journals/%31')).id).toBe(1);
    expect((await get(api, '/journals/%3')).status).toBe(400);
  });

  it.each(['/journals/abc', '/journals/+1', '/journals/1e3/score', '/authors/x', '/journals/--1'])(
    '%s → 400',
    async (path) => {
      expect((await get(api, path)).status).toBe(400);
    },
  );

  it('round-trips every awkward DOI when the path segment is encoded', async () => {
    for (const doi of MOCK_DOIS) {
      expect((await ok(api, `/papers/${encodeURIComponent(doi)}`)).doi).toBe(doi);
    }
  });

  it('treats a raw slash as another path (404) and bad percent-encoding as 400', async () => {
    expect((await get(api, '/papers/10.1000/abc/def')).status).toBe(404);
    expect((await get(api, '/papers/10.1000%2Fabc/def')).status).toBe(404);
    expect((await get(api, '/papers/%E0%A4%A')).status).toBe(400);
  });

  it('matches DOIs case-insensitively, as the DOI system does', async () => {
    expect((await ok(api, `/papers/${encodeURIComponent('10.1000/ABC/DEF')}`)).doi).toBe('10.1000/abc/def');
  });

  it('is strict about trailing and doubled slashes', async () => {
    expect((await get(api, '/journals/')).status).toBe(404);
    expect((await get(api, '//journals')).status).toBe(404);
  });
});

describe('query parameters', () => {
  it('refuses unknown and repeated parameters with 400', async () => {
    const unknown = await get(api, '/papers?query=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: expect.stringContaining("'query'") });
    expect((await get(api, '/journals?page=1')).status).toBe(400);
    expect((await get(api, '/papers?year=2020&year=2021')).status).toBe(400);
  });

  it('lists the allowed sort values in the 400', async () => {
    const answer = await get(api, '/papers?sort=popularity');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ message: expect.stringContaining('-citations') });
    expect((await get(api, '/authors?sort=h_index')).status).toBe(400);
  });
});
