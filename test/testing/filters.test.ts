import { describe, expect, it } from 'vitest';
import { MOCK_AUTHOR_SORTS, MOCK_PAPER_SORTS } from '../../src/testing/index.js';
import { get, ok, type Page, smallApi } from './helpers.js';

const api = smallApi();
const { dataset } = api;

interface PaperItem {
  id: number;
  title: string;
  authors: string;
  year: number;
  citations: number;
  oa: boolean;
}
interface AuthorItem {
  id: number;
  name: string;
  total_papers: number;
  total_cites: number;
}

const all = async <T>(path: string): Promise<T[]> => {
  const items: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const { data } = await ok<Page<T>>(
      api,
      `${path}${sep}page=${page}${path.startsWith('/papers') ? '&per_page=100' : ''}`,
    );
    if (data.length === 0) return items;
    items.push(...data);
  }
};

describe('paper search filters', () => {
  it('q: case-insensitive substring of the title or the author names', async () => {
    const hits = await all<PaperItem>('/papers?q=CLIMATE');
    const expected = dataset.papers.filter((p) => p.title.toLowerCase().includes('climate'));
    expect(hits.map((p) => p.id).sort((a, b) => a - b)).toEqual(expected.map((p) => p.id));
    const name = dataset.authors[0]!.name;
    const byAuthor = await ok<Page<PaperItem>>(api, `/papers?q=${encodeURIComponent(name.toUpperCase())}`);
    expect(byAuthor.total).toBeGreaterThan(0);
    expect(byAuthor.data.every((p) => p.authors.includes(name) || p.title.includes(name))).toBe(true);
  });

  it('q: a term that matches nothing gives an empty page and total 0', async () => {
    expect(await ok(api, '/papers?q=zzzzqqq')).toEqual({ data: [], total: 0 });
  });

  it('q: matches non-ASCII names whatever their Unicode composition', async () => {
    const paper = dataset.papers.find((p) => /[À-ž]/.test(p.authors))!;
    const word = paper.authors.split(/[ ,]+/).find((w) => /[À-ž]/.test(w))!;
    const decomposed = encodeURIComponent(word.normalize('NFD'));
    const hits = await ok<Page<PaperItem>>(api, `/papers?q=${decomposed}&per_page=100`);
    expect(hits.total).toBeGreaterThan(0);
  });

  it('year and oa filter exactly, and combine with q', async () => {
    const year = dataset.papers[0]!.year;
    const hits = await all<PaperItem>(`/papers?year=${year}&oa=true`);
    expect(hits.length).toBe(dataset.papers.filter((p) => p.year === year && p.oa).length);
    expect(hits.every((p) => p.year === year && p.oa)).toBe(true);
    const closed = await ok<Page<PaperItem>>(api, '/papers?oa=false&q=neural');
    expect(closed.total).toBe(dataset.papers.filter((p) => !p.oa && p.title.includes('neural')).length);
    expect((await ok<Page<PaperItem>>(api, '/papers?year=1800')).total).toBe(0);
  });

  it.each(['year=20x0', 'year=0', 'year=10000', 'oa=yes', 'oa=TRUE', 'oa=1'])('%s → 400', async (query) => {
    expect((await get(api, `/papers?${query}`)).status).toBe(400);
  });
});

describe('paper sorts', () => {
  const isSorted = <T>(items: T[], key: (item: T) => number | string, descending: boolean) =>
    items.every((item, i) => {
      if (i === 0) return true;
      const [a, b] = [key(items[i - 1]!), key(item)];
      return descending ? a >= b : a <= b;
    });

  it('accepts exactly the documented values', () => {
    expect(MOCK_PAPER_SORTS).toEqual([
      'relevance',
      'citations',
      '-citations',
      'year',
      '-year',
      'title',
      '-title',
    ]);
  });

  it.each([
    ['citations', (p: PaperItem) => p.citations, false],
    ['-citations', (p: PaperItem) => p.citations, true],
    ['year', (p: PaperItem) => p.year, false],
    ['-year', (p: PaperItem) => p.year, true],
    ['title', (p: PaperItem) => p.title.toLowerCase(), false],
    ['-title', (p: PaperItem) => p.title.toLowerCase(), true],
  ] as const)('sort=%s orders the whole result, ties by id', async (sort, key, descending) => {
    const hits = await all<PaperItem>(`/papers?q=graph&sort=${sort}`);
    expect(hits.length).toBeGreaterThan(20);
    expect(isSorted(hits, key, descending)).toBe(true);
    const ties = hits.filter((p) => key(p) === key(hits[0]!)).map((p) => p.id);
    expect(ties).toEqual([...ties].sort((a, b) => a - b));
  });

  it('relevance (the default) puts title matches first, then the more cited', async () => {
    // 'li' is in titles ('climate', 'limits') and in names ('Li', 'Julia'): both groups are present.
    const hits = await all<PaperItem>('/papers?q=li');
    const inTitle = hits.map((p) => p.title.toLowerCase().includes('li'));
    expect(inTitle).toContain(true);
    expect(inTitle).toContain(false);
    expect(inTitle.indexOf(false)).toBe(inTitle.lastIndexOf(true) + 1);
    expect(
      isSorted(
        hits.filter((_, i) => !inTitle[i]),
        (p) => p.citations,
        true,
      ),
    ).toBe(true);
    const unsorted = await ok<Page<PaperItem>>(api, '/papers?per_page=5');
    expect(unsorted.data.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('author list filters and sorts', () => {
  it('country_id and field_id filter; unknown ids match nothing', async () => {
    const { country_id, field_id } = dataset.authors[0]!;
    const hits = await all<AuthorItem>(`/authors?country_id=${country_id}&field_id=${field_id}`);
    const expected = dataset.authors.filter((a) => a.country_id === country_id && a.field_id === field_id);
    expect(hits.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    expect((await ok<Page<AuthorItem>>(api, '/authors?country_id=9999')).total).toBe(0);
  });

  it.each(['country_id=abc', 'country_id=+1', 'field_id=1.0', 'field_id=9007199254740992'])(
    '%s → 400',
    async (query) => {
      expect((await get(api, `/authors?${query}`)).status).toBe(400);
    },
  );

  it.each(['country_id=0', 'field_id=-2'])(
    '%s: an integer that matches nothing, an empty page',
    async (query) => {
      expect(await ok<Page<AuthorItem>>(api, `/authors?${query}`)).toEqual({ data: [], total: 0 });
    },
  );

  it('q matches name or affiliation, case-insensitively', async () => {
    const affil = dataset.authors[5]!.affil.split(',')[0]!;
    const hits = await all<AuthorItem & { affil: string }>(
      `/authors?q=${encodeURIComponent(affil.toLowerCase())}`,
    );
    expect(hits.map((a) => a.id)).toContain(6);
    expect(hits.every((a) => `${a.name} ${a.affil}`.toLowerCase().includes(affil.toLowerCase()))).toBe(true);
  });

  it.each(MOCK_AUTHOR_SORTS.filter((s) => s !== 'id'))('sort=%s', async (sort) => {
    const field = sort.replace('-', '') as 'name' | 'total_papers' | 'total_cites';
    const hits = await all<AuthorItem>(`/authors?sort=${sort}`);
    expect(hits).toHaveLength(dataset.authors.length);
    const values = hits.map((a) => (field === 'name' ? a.name.toLowerCase() : a[field]));
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(values).toEqual(sort.startsWith('-') ? sorted.reverse() : sorted);
  });
});

describe('countries: show', () => {
  it('defaults to active: only countries with at least one journal, by id', async () => {
    const active = await ok<{ id: number; journals: number }[]>(api, '/countries');
    expect(active.map((c) => c.id)).toEqual(dataset.countries.filter((c) => c.journals > 0).map((c) => c.id));
    expect(await ok(api, '/countries?show=active')).toEqual(active);
    expect((await ok<unknown[]>(api, '/countries?show=all')).length).toBeGreaterThan(active.length);
  });

  it('refuses other values with the allowed ones in the message', async () => {
    const answer = await get(api, '/countries?show=inactive');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ message: expect.stringContaining('active, all') });
  });
});
