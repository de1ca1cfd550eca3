/**
 * The API of the document's §4, described once: every endpoint's method name, path, parameters and
 * their checks, answer, paging and default cache lifetime. The resources, the cache, telemetry, the
 * mock, the command line and the OpenAPI document all read it; adding an endpoint starts here.
 */
import type { Endpoint } from '../core/endpoint.js';
import {
  checkBoolean,
  checkDoi,
  checkId,
  checkInteger,
  checkOneOf,
  checkPositiveInteger,
  checkString,
  type ParamCheck,
  type ParamChecks,
} from '../core/params.js';
import type { ResponseShape } from '../core/validate.js';
import { shapes } from '../schemas/shapes.js';
import {
  type AuthorListParams,
  type CountryListParams,
  type JournalPapersParams,
  type PaperSearchParams,
  SHOW_VALUES,
} from './params.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

const id: ParamCheck = checkId;
const doi: ParamCheck = (_name, value) => checkDoi(value);
const optionalId: ParamCheck = checkInteger;
const pages = { page: checkPositiveInteger, per_page: checkPositiveInteger };

/** An endpoint of the table, typed with its name and its answer. */
export interface ApiEndpoint<N extends string, T> extends Endpoint<T> {
  readonly name: N;
}

function endpoint<const N extends string, T>(
  name: N,
  path: string,
  shape: ResponseShape<T>,
  rest: Partial<Omit<Endpoint<T>, 'name' | 'path' | 'shape'>> & { ttl: number },
): ApiEndpoint<N, T> {
  return { name, path, shape, pathParams: {}, query: {}, paged: false, ...rest };
}

/**
 * Every endpoint, by namespace and verb. The lifetimes' reasons are in docs/cache.md: reference lists
 * and records that barely change live a day; what the `score_updated` webhook refreshes lives a day
 * too, because the event drops it when the score moves; lists that grow with new papers live an hour
 * or less; searches, many and each soon out of date, live the shortest.
 */
export const endpoints = {
  journals: {
    list: endpoint('journals.list', '/journals', shapes.journalList, {
      ttl: 6 * hour,
      scoreEvent: { of: 'list', score: 'metric_score' },
    }),
    get: endpoint('journals.get', '/journals/{id}', shapes.journalProfile, {
      pathParams: { id },
      ttl: day,
      identity: 'id',
      scoreEvent: { of: 'journal', score: 'metric_score' },
    }),
    papers: endpoint('journals.papers', '/journals/{id}/papers', shapes.journalPaperPage, {
      pathParams: { id },
      query: pages satisfies ParamChecks<JournalPapersParams>,
      paged: true,
      ttl: hour,
    }),
    score: endpoint('journals.score', '/journals/{id}/score', shapes.scoreHistory, {
      pathParams: { id },
      ttl: day,
      scoreEvent: { of: 'journal', score: 'current' },
    }),
  },
  papers: {
    search: endpoint('papers.search', '/papers', shapes.paperSummaryPage, {
      query: {
        q: checkString,
        year: checkInteger,
        oa: checkBoolean,
        sort: checkString,
        ...pages,
      } satisfies ParamChecks<PaperSearchParams>,
      paged: true,
      ttl: 15 * minute,
    }),
    get: endpoint('papers.get', '/papers/{doi}', shapes.paper, {
      pathParams: { doi },
      ttl: day,
      identity: 'doi',
    }),
  },
  authors: {
    list: endpoint('authors.list', '/authors', shapes.authorPage, {
      query: {
        q: checkString,
        country_id: optionalId,
        field_id: optionalId,
        sort: checkString,
        page: checkPositiveInteger,
      } satisfies ParamChecks<AuthorListParams>,
      paged: true,
      ttl: hour,
    }),
    get: endpoint('authors.get', '/authors/{id}', shapes.authorProfile, {
      pathParams: { id },
      ttl: 6 * hour,
      identity: 'id',
    }),
  },
  subjects: {
    list: endpoint('subjects.list', '/subjects', shapes.subjectList, { ttl: day }),
  },
  countries: {
    list: endpoint('countries.list', '/countries', shapes.countryList, {
      query: {
        show: (name, value) => checkOneOf(name, value, SHOW_VALUES),
      } satisfies ParamChecks<CountryListParams>,
      ttl: day,
    }),
  },
};

type Table = typeof endpoints;
/** Every endpoint of the table. */
export type AnyEndpoint = { [S in keyof Table]: Table[S][keyof Table[S]] }[keyof Table];
/** The contract's method names: `journals.get`, …; the keys of `cache.ttl`. */
export type EndpointName = AnyEndpoint['name'];

/** The endpoints as one list, in the table's order. */
export const endpointList: readonly AnyEndpoint[] = Object.values(endpoints).flatMap(
  (namespace) => Object.values(namespace) as AnyEndpoint[],
);
