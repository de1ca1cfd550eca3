import { endpoints } from '../api/endpoints.js';
import { SHOW_VALUES } from '../api/params.js';
import type { Endpoint } from '../core/endpoint.js';
import type { MockDataset } from './dataset-types.js';
import { paginate, parseId, Query } from './params.js';
import { badRequest, HttpError } from './responses.js';
import { MOCK_AUTHOR_SORTS, MOCK_PAPER_SORTS, searchAuthors, searchPapers } from './search.js';
import * as wire from './wire.js';

/** How the mock answers one endpoint: the body to send, or an {@link HttpError}. */
export type Handler = (
  dataset: MockDataset,
  query: Query,
  values: Readonly<Record<string, string>>,
) => unknown;

/** An endpoint of the API table and the mock's answer to it. */
export interface MockRoute {
  readonly endpoint: Endpoint;
  readonly handler: Handler;
}

type Table = typeof endpoints;
type Handlers = { readonly [S in keyof Table]: { readonly [V in keyof Table[S]]: Handler } };

/** The mock's answer to each endpoint of the table, by the same namespaces and verbs. */
const handlers: Handlers = {
  journals: {
    list: (dataset) => dataset.journals.map(wire.journalListItem),
    get: (dataset, _query, { id }) => wire.journalProfile(findJournal(dataset, id)),
    papers: (dataset, query, { id }) => {
      const journal = findJournal(dataset, id);
      const { page, perPage } = query.pagination();
      // Only the page's ids become records, so a page costs the same in a journal of any size.
      const paperIds = dataset.journalPaperIds(journal.id);
      return paginate(paperIds, page, perPage, (paperId) => wire.journalPaper(dataset.paper(paperId)!));
    },
    score: (dataset, _query, { id }) => wire.journalScore(findJournal(dataset, id)),
  },
  papers: {
    search: (dataset, query) => {
      const filters = {
        q: query.string('q'),
        year: query.integer('year', 1, 9999),
        oa: query.boolean('oa'),
        sort: query.oneOf('sort', MOCK_PAPER_SORTS, 'relevance'),
      };
      const { page, perPage } = query.pagination();
      return paginate(searchPapers(dataset.papers, filters), page, perPage, wire.paperSearchItem);
    },
    get: (dataset, _query, values) => {
      const doi = decodeSegment(values.doi ?? '');
      const paper = dataset.paperByDoi(doi);
      if (paper === undefined) throw new HttpError(404, `No paper with DOI ${doi}`);
      return wire.paper(dataset, paper);
    },
  },
  authors: {
    list: (dataset, query) => {
      const filters = {
        q: query.string('q'),
        country_id: query.integer('country_id'),
        field_id: query.integer('field_id'),
        sort: query.oneOf('sort', MOCK_AUTHOR_SORTS, 'id'),
      };
      const { page, perPage } = query.pagination();
      return paginate(searchAuthors(dataset.authors, filters), page, perPage, wire.authorListItem);
    },
    get: (dataset, _query, { id }) => {
      const author = dataset.author(parseId(id ?? '', 'Author'));
      if (author === undefined) throw new HttpError(404, `No author with id ${id}`);
      return wire.authorProfile(dataset, author);
    },
  },
  subjects: {
    list: (dataset) => dataset.subjects.map(wire.subject),
  },
  countries: {
    list: (dataset, query) => {
      const show = query.oneOf('show', SHOW_VALUES, 'active');
      const countries = show === 'all' ? dataset.countries : dataset.countries.filter((c) => c.journals > 0);
      return countries.map(wire.country);
    },
  },
};

/** Every endpoint of the API table with the mock's answer to it. */
export const mockRoutes: readonly MockRoute[] = Object.entries(endpoints).flatMap(([namespace, verbs]) =>
  Object.entries(verbs).map(([verb, endpoint]) => ({
    endpoint,
    handler: (handlers as Record<string, Record<string, Handler>>)[namespace]![verb]!,
  })),
);

/** Answers one API path (the part after the base path, e.g. `/journals/7`) with the body to send. */
export type Router = (dataset: MockDataset, path: string, params: URLSearchParams) => unknown;

/**
 * A router over `routes`. A `{name}` of an endpoint's path stands for exactly one non-empty raw path
 * segment, so a DOI's own `/` must arrive encoded as `%2F`; a raw `/` makes another path, which is a
 * 404. The query is checked against the names the endpoint takes before the handler runs.
 */
export function createRouter(routes: readonly MockRoute[]): Router {
  const compiled = routes.map((route) => ({ ...route, segments: route.endpoint.path.split('/') }));
  return (dataset, path, params) => {
    const parts = path.split('/');
    for (const { endpoint, handler, segments } of compiled) {
      const values = matchSegments(segments, parts);
      if (values !== undefined)
        return handler(dataset, new Query(params, Object.keys(endpoint.query)), values);
    }
    throw new HttpError(404, `No endpoint at ${path || '/'}`);
  };
}

/** The values of a template's `{name}` segments in `parts`, or `undefined` when they do not match. */
function matchSegments(template: readonly string[], parts: readonly string[]) {
  if (template.length !== parts.length) return undefined;
  const values: Record<string, string> = {};
  for (const [index, segment] of template.entries()) {
    const part = parts[index]!;
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name !== undefined && part !== '') values[name] = part;
    else if (segment !== part) return undefined;
  }
  return values;
}

/** The mock's router over the whole API table. */
export const routeApiPath: Router = createRouter(mockRoutes);

function findJournal(dataset: MockDataset, segment: string | undefined) {
  const journal = dataset.journal(parseId(segment ?? '', 'Journal'));
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
