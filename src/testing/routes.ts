import type { MockDataset } from './dataset-types.js';
import { paginate, parseId, Query } from './params.js';
import { badRequest, HttpError } from './responses.js';
import { AUTHOR_SORTS, PAPER_SORTS, searchAuthors, searchPapers } from './search.js';
import * as wire from './wire.js';

/**
 * Accepted values of `show` on `/countries`; `active` (countries with at least one journal) is the default.
 *
 * @example
 * ```ts
 * for (const show of SHOW_VALUES) await client.countries.list({ show });
 * ```
 */
export const SHOW_VALUES = ['active', 'all'] as const;

type Route = (dataset: MockDataset, params: URLSearchParams, segment: string) => unknown;

/**
 * The endpoints of API §4, by path pattern. `:id` and `:doi` stand for exactly one raw path segment,
 * so a DOI's own `/` must arrive encoded as `%2F`; a raw `/` makes another path, which is a 404.
 */
const routes: Record<string, Route> = {
  '/journals': (dataset, params) => {
    new Query(params, []);
    return dataset.journals.map(wire.journalListItem);
  },
  '/journals/:id': (dataset, params, segment) => {
    new Query(params, []);
    return wire.journalProfile(findJournal(dataset, segment));
  },
  '/journals/:id/papers': (dataset, params, segment) => {
    const query = new Query(params, ['page', 'per_page']);
    const journal = findJournal(dataset, segment);
    const { page, perPage } = query.pagination();
    const papers = dataset.journalPaperIds(journal.id).map((id) => dataset.paper(id)!);
    return paginate(papers, page, perPage, wire.journalPaper);
  },
  '/journals/:id/score': (dataset, params, segment) => {
    new Query(params, []);
    return wire.journalScore(findJournal(dataset, segment));
  },
  '/papers': (dataset, params) => {
    const query = new Query(params, ['q', 'year', 'oa', 'sort', 'page', 'per_page']);
    const filters = {
      q: query.string('q'),
      year: query.integer('year', 1, 9999),
      oa: query.boolean('oa'),
      sort: query.oneOf('sort', PAPER_SORTS, 'relevance'),
    };
    const { page, perPage } = query.pagination();
    return paginate(searchPapers(dataset.papers, filters), page, perPage, wire.paperSearchItem);
  },
  '/papers/:doi': (dataset, params, segment) => {
    new Query(params, []);
    const doi = decodeSegment(segment);
    const paper = dataset.paperByDoi(doi);
    if (paper === undefined) throw new HttpError(404, `No paper with DOI ${doi}`);
    return wire.paper(dataset, paper);
  },
  '/authors': (dataset, params) => {
    const query = new Query(params, ['q', 'country_id', 'field_id', 'sort', 'page']);
    const filters = {
      q: query.string('q'),
      country_id: query.integer('country_id', 1),
      field_id: query.integer('field_id', 1),
      sort: query.oneOf('sort', AUTHOR_SORTS, 'id'),
    };
    const { page, perPage } = query.pagination();
    return paginate(searchAuthors(dataset.authors, filters), page, perPage, wire.authorListItem);
  },
  '/authors/:id': (dataset, params, segment) => {
    new Query(params, []);
    const author = dataset.author(parseId(segment, 'Author'));
    if (author === undefined) throw new HttpError(404, `No author with id ${segment}`);
    return wire.authorProfile(dataset, author);
  },
  '/subjects': (dataset, params) => {
    new Query(params, []);
    return dataset.subjects.map(wire.subject);
  },
  '/countries': (dataset, params) => {
    const show = new Query(params, ['show']).oneOf('show', SHOW_VALUES, 'active');
    const countries = show === 'all' ? dataset.countries : dataset.countries.filter((c) => c.journals > 0);
    return countries.map(wire.country);
  },
};

/**
 * Answers one API path (the part after the base path, e.g. `/journals/7`) with the body to send,
 * or throws an {@link HttpError}.
 */
export function routeApiPath(dataset: MockDataset, path: string, params: URLSearchParams): unknown {
  const parts = path.split('/');
  // parts[0] is the empty string before the leading slash.
  const [, resource, segment, tail, ...extra] = parts;
  let pattern: string | undefined;
  if (resource !== undefined && extra.length === 0) {
    if (segment === undefined) pattern = `/${resource}`;
    else if (segment !== '') pattern = tail === undefined ? `/${resource}/:id` : `/${resource}/:id/${tail}`;
  }
  if (pattern === '/papers/:id') pattern = '/papers/:doi';
  const route = pattern === undefined ? undefined : routes[pattern];
  if (route === undefined) throw new HttpError(404, `No endpoint at ${path || '/'}`);
  return route(dataset, params, segment ?? '');
}

function findJournal(dataset: MockDataset, segment: string) {
  const journal = dataset.journal(parseId(segment, 'Journal'));
  if (journal === undefined) throw new HttpError(404, `No journal with id ${segment}`);
  return journal;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('The DOI path segment is not valid percent-encoding');
  }
}
