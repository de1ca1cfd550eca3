import type { MockAuthor, MockPaper } from './dataset-types.js';
import { RecentMemo } from './recent-memo.js';

/**
 * Accepted `sort` values of `GET /papers`. A leading `-` means descending; ties always fall back to
 * ascending id, so pages never overlap or skip while a client walks them. Frozen, as every list the
 * mock exports: the mock reads it at each request, and one test must not change it for the others.
 *
 * @example
 * ```ts
 * await client.papers.search({ q: 'climate', sort: '-citations' });
 * ```
 */
export const MOCK_PAPER_SORTS = Object.freeze([
  'relevance',
  'citations',
  '-citations',
  'year',
  '-year',
  'title',
  '-title',
] as const);

/**
 * Accepted `sort` values of `GET /authors` (default `id`).
 *
 * @example
 * ```ts
 * await client.authors.list({ sort: '-total_cites' });
 * ```
 */
export const MOCK_AUTHOR_SORTS = Object.freeze([
  'id',
  'name',
  '-name',
  'total_papers',
  '-total_papers',
  'total_cites',
  '-total_cites',
] as const);

export type PaperSort = (typeof MOCK_PAPER_SORTS)[number];
export type AuthorSort = (typeof MOCK_AUTHOR_SORTS)[number];

export interface PaperFilters {
  readonly q?: string | undefined;
  readonly year?: number | undefined;
  readonly oa?: boolean | undefined;
  readonly sort: PaperSort;
}

export interface AuthorFilters {
  readonly q?: string | undefined;
  readonly country_id?: number | undefined;
  readonly field_id?: number | undefined;
  readonly sort: AuthorSort;
}

/** Case-insensitive, composition-insensitive form used by `q`. */
export function searchForm(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/** The form of `q` a search matches, `undefined` when it matches everything. */
function queryForm(q: string | undefined): string | undefined {
  return q === undefined || q === '' ? undefined : searchForm(q);
}

// Sorted orders and lower-cased texts depend only on the shared, frozen record arrays, so they are
// computed once per dataset and reused by every mock and every request.
const sortedCache = new WeakMap<readonly object[], Map<string, readonly object[]>>();
const textCache = new WeakMap<readonly object[], readonly string[][]>();

/** How many queries' matches each dataset keeps: walks in progress at once, and a few more. */
export const QUERY_MEMO_LIMIT = 8;

// A client walks a query page by page: keeping the matches of each dataset's recent queries lets
// every later page slice them, so a page costs the same at any dataset size.
const matchMemos = new WeakMap<readonly object[], RecentMemo<readonly object[]>>();

/** The matches `find` gives for the query `key` over `items`, kept while the query is recent. */
function recentMatches<T extends object>(
  items: readonly T[],
  key: readonly unknown[],
  find: () => readonly T[],
): readonly T[] {
  let memo = matchMemos.get(items);
  if (memo === undefined) {
    memo = new RecentMemo(QUERY_MEMO_LIMIT);
    matchMemos.set(items, memo);
  }
  return memo.get(JSON.stringify(key), find) as readonly T[];
}

function sortedBy<T extends { id: number }>(
  items: readonly T[],
  key: string,
  compare: (a: T, b: T) => number,
): readonly T[] {
  let byKey = sortedCache.get(items);
  if (byKey === undefined) {
    byKey = new Map();
    sortedCache.set(items, byKey);
  }
  let sorted = byKey.get(key) as readonly T[] | undefined;
  if (sorted === undefined) {
    sorted = [...items].sort((a, b) => compare(a, b) || a.id - b.id);
    byKey.set(key, sorted);
  }
  return sorted;
}

function textsOf<T extends object>(
  items: readonly T[],
  fields: readonly ((item: T) => string)[],
): readonly string[][] {
  let texts = textCache.get(items);
  if (texts === undefined) {
    texts = fields.map((field) => items.map((item) => searchForm(field(item))));
    textCache.set(items, texts);
  }
  return texts;
}

const byText = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

const paperComparators: Record<Exclude<PaperSort, 'relevance'>, (a: MockPaper, b: MockPaper) => number> = {
  citations: (a, b) => a.citations - b.citations,
  '-citations': (a, b) => b.citations - a.citations,
  year: (a, b) => a.year - b.year,
  '-year': (a, b) => b.year - a.year,
  title: (a, b) => byText(a.title, b.title),
  '-title': (a, b) => byText(b.title, a.title),
};

/**
 * Papers matching the filters, in `sort` order. `q` is a case-insensitive substring of the title or
 * of the author names; `relevance` puts title matches first, then the more cited, then by id.
 */
export function searchPapers(papers: readonly MockPaper[], filters: PaperFilters): readonly MockPaper[] {
  const q = queryForm(filters.q);
  const key = [q, filters.year, filters.oa, filters.sort];
  return recentMatches(papers, key, () => findPapers(papers, { ...filters, q }));
}

/** Every paper matching the filters, `q` in its search form. */
function findPapers(papers: readonly MockPaper[], filters: PaperFilters): readonly MockPaper[] {
  const { q, year, oa, sort } = filters;
  const order = sort === 'relevance' ? papers : sortedBy(papers, sort, paperComparators[sort]);
  if (q === undefined && year === undefined && oa === undefined) return order;
  const [titles, authors] = textsOf(papers, [(p) => p.title, (p) => p.authors]) as [string[], string[]];
  const matches = order.filter((paper) => {
    if (year !== undefined && paper.year !== year) return false;
    if (oa !== undefined && paper.oa !== oa) return false;
    if (q === undefined) return true;
    return titles[paper.id - 1]!.includes(q) || authors[paper.id - 1]!.includes(q);
  });
  if (sort !== 'relevance' || q === undefined) return matches;
  const inTitle = (paper: MockPaper): number => (titles[paper.id - 1]!.includes(q) ? 0 : 1);
  return matches.sort((a, b) => inTitle(a) - inTitle(b) || b.citations - a.citations || a.id - b.id);
}

const authorComparators: Record<AuthorSort, (a: MockAuthor, b: MockAuthor) => number> = {
  id: (a, b) => a.id - b.id,
  name: (a, b) => byText(a.name, b.name),
  '-name': (a, b) => byText(b.name, a.name),
  total_papers: (a, b) => a.total_papers - b.total_papers,
  '-total_papers': (a, b) => b.total_papers - a.total_papers,
  total_cites: (a, b) => a.total_cites - b.total_cites,
  '-total_cites': (a, b) => b.total_cites - a.total_cites,
};

/** Authors matching the filters, in `sort` order. `q` is a case-insensitive substring of name or affiliation. */
export function searchAuthors(authors: readonly MockAuthor[], filters: AuthorFilters): readonly MockAuthor[] {
  const q = queryForm(filters.q);
  const key = [q, filters.country_id, filters.field_id, filters.sort];
  return recentMatches(authors, key, () => findAuthors(authors, { ...filters, q }));
}

/** Every author matching the filters, `q` in its search form. */
function findAuthors(authors: readonly MockAuthor[], filters: AuthorFilters): readonly MockAuthor[] {
  const { q, country_id, field_id, sort } = filters;
  const order = sort === 'id' ? authors : sortedBy(authors, sort, authorComparators[sort]);
  if (q === undefined && country_id === undefined && field_id === undefined) return order;
  const [names, affils] = textsOf(authors, [(a) => a.name, (a) => a.affil]) as [string[], string[]];
  return order.filter((author) => {
    if (country_id !== undefined && author.country_id !== country_id) return false;
    if (field_id !== undefined && author.field_id !== field_id) return false;
    if (q === undefined) return true;
    return names[author.id - 1]!.includes(q) || affils[author.id - 1]!.includes(q);
  });
}
