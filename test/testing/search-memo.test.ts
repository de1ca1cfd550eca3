import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDataset } from '../../src/testing/dataset.js';
import {
  type AuthorFilters,
  type PaperFilters,
  QUERY_MEMO_LIMIT,
  searchAuthors,
  searchPapers,
} from '../../src/testing/search.js';
import { smallSizes } from './helpers.js';

// A client walks a query page by page: every page after the first must slice the matches the first
// one found, not filter the whole dataset again, so a page costs the same at any dataset size.
describe("the mock's search keeps recent queries' matches", () => {
  const { papers, authors } = createDataset(7, smallSizes);

  it('answers a repeated paper query with the same matches', () => {
    const filters: PaperFilters = { q: 'graph', oa: true, sort: '-citations' };
    const first = searchPapers(papers, filters);
    expect(first.length).toBeGreaterThan(0);
    expect(searchPapers(papers, { ...filters })).toBe(first);
  });

  it('answers a repeated author query with the same matches', () => {
    const filters: AuthorFilters = { country_id: 3, sort: 'name' };
    const first = searchAuthors(authors, filters);
    expect(searchAuthors(authors, { ...filters })).toBe(first);
  });

  it('treats queries that differ only in the case or composition of q as one', () => {
    const lower = searchPapers(papers, { q: 'caf\u00e9', sort: 'relevance' });
    expect(searchPapers(papers, { q: 'CAFE\u0301', sort: 'relevance' })).toBe(lower);
    const none = searchPapers(papers, { sort: 'year' });
    expect(searchPapers(papers, { q: '', sort: 'year' })).toBe(none);
  });

  it('keeps queries apart by every filter and the sort', () => {
    const base = searchPapers(papers, { year: 2015, sort: 'title' });
    expect(searchPapers(papers, { year: 2016, sort: 'title' })).not.toBe(base);
    expect(searchPapers(papers, { year: 2015, sort: '-title' })).not.toBe(base);
    expect(searchPapers(papers, { year: 2015, oa: false, sort: 'title' })).not.toBe(base);
  });

  it('keeps only the most recently used queries of a dataset', () => {
    const first = searchPapers(papers, { year: 2001, sort: 'citations' });
    const second = searchPapers(papers, { year: 2002, sort: 'citations' });
    for (let year = 2003; year < 2001 + QUERY_MEMO_LIMIT; year++)
      searchPapers(papers, { year, sort: 'citations' });
    expect(searchPapers(papers, { year: 2001, sort: 'citations' })).toBe(first); // read again: the most recent
    searchPapers(papers, { year: 1990, sort: 'citations' }); // one more drops the least recent: 2002
    expect(searchPapers(papers, { year: 2001, sort: 'citations' })).toBe(first);
    const again = searchPapers(papers, { year: 2002, sort: 'citations' });
    expect(again).not.toBe(second);
    expect(again).toEqual(second);
  });
});

describe("the mock's DOI index", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The dataset is cached per seed and sizes, so a mock per test must not index every paper again.
  it('is built once per seed and sizes, not once per mock', () => {
    const sizes = { ...smallSizes, papers: 1_234 };
    const doi = createDataset(11, sizes).papers[41]!.doi;
    expect(createDataset(11, sizes).paperByDoi(doi)?.id).toBe(42);
    const normalize = vi.spyOn(String.prototype, 'normalize');
    expect(createDataset(11, sizes).paperByDoi(doi.toUpperCase())?.id).toBe(42);
    expect(normalize.mock.calls.length).toBeLessThanOrEqual(1); // the DOI asked for, no paper's
  });
});
