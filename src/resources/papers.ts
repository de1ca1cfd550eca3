import type { APIPromise } from '../core/api-promise.js';
import { type OptionNames, type RequestOptions, requestOptionNames } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import {
  checkBoolean,
  checkDoi,
  checkInteger,
  checkPositiveInteger,
  checkQuery,
  checkString,
  type ParamChecks,
} from '../core/params.js';
import { segment } from '../core/path.js';
import { APIResource, pageOptionNames, type ResourceMethod } from '../core/resource.js';
import type { TransportOptions } from '../core/transport.js';
import type { Paper, PaperSummary } from '../schemas/papers.js';
import { shapes } from '../schemas/shapes.js';
import type { GetManyOptions, PaperResult } from './get-many.js';

/**
 * Parameters of {@link Papers.search}.
 *
 * @example
 * ```ts
 * import type { PaperSearchParams } from 'scholarly-metrics';
 *
 * const params: PaperSearchParams = { q: 'graphene', year: 2021, oa: true, per_page: 100 };
 * for await (const paper of client.papers.search(params)) console.log(paper.doi);
 * ```
 */
export interface PaperSearchParams {
  /** Search term. */
  q?: string | undefined;
  /** Publication year. */
  year?: number | undefined;
  /** Open access only (`true`) or not open access (`false`). */
  oa?: boolean | undefined;
  /** Sort selector; the API document lists no values, so any string is sent as is. */
  sort?: string | undefined;
  /** The page to start from (1-based). @default 1 */
  page?: number | undefined;
  /** Papers per page. @default the server's */
  per_page?: number | undefined;
}

/** The options a lookup of `papers.getMany` hands to `papers.get`: the request options and the core's. */
const lookupOptionNames: OptionNames<TransportOptions> = {
  ...requestOptionNames,
  onRetry: true,
  isResult: true,
  attempts: true,
};

/** What each method takes: its parameters, and the names of its request options. */
const spec = {
  search: {
    method: 'papers.search',
    checks: {
      q: checkString,
      year: checkInteger,
      oa: checkBoolean,
      sort: checkString,
      page: checkPositiveInteger,
      per_page: checkPositiveInteger,
    } satisfies ParamChecks<PaperSearchParams>,
    options: pageOptionNames,
  },
  get: { method: 'papers.get', checks: {}, options: requestOptionNames },
  lookup: { method: 'papers.get', checks: {}, options: lookupOptionNames },
} satisfies Record<string, ResourceMethod>;

/**
 * `client.papers`: search, and lookup by DOI.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl });
 * const { data } = await client.papers.search({ q: 'graphene' });
 * const doi = data[0]?.doi; // search results may lack any field, the DOI included
 * const paper = doi === undefined ? undefined : await client.papers.get(doi);
 * ```
 */
export class Papers extends APIResource {
  /**
   * Searches papers, page by page. `GET /papers`
   * @example
   * ```ts
   * const page = await client.papers.search({ q: 'graphene', year: 2021, oa: true });
   * console.log(page.total, page.data[0]?.title);
   * ```
   */
  search(params?: PaperSearchParams, options?: PageRequestOptions): PagePromise<PaperSummary> {
    return this.paginate(
      spec.search,
      (page) => ({ path: '/papers', query: checkQuery(spec.search, params, { page }) }),
      shapes.paperSummaryPage,
      params,
      options,
    );
  }

  /**
   * One paper by its DOI, sent as a single percent-encoded path segment. `GET /papers/{doi}`
   * @example
   * ```ts
   * const paper = await client.papers.get('10.1000/xyz123');
   * ```
   */
  get(doi: string, options?: RequestOptions): APIPromise<Paper> {
    return this.#get(spec.get, doi, options);
  }

  /** `papers.get`, as a caller (`spec.get`) or a lookup of `getMany` (`spec.lookup`) makes it. */
  #get(method: ResourceMethod, doi: string, options: TransportOptions | undefined): APIPromise<Paper> {
    return this.request(method, () => ({ path: `/papers/${segment(checkDoi(doi))}` }), shapes.paper, options);
  }

  /**
   * Many papers by DOI, each looked up as by {@link Papers.get}, `concurrency` at a time (default 4).
   * Resolves to one {@link PaperResult} per DOI, in the order given: `{ doi, paper }`, or
   * `{ doi, error }` when that DOI was refused before sending, not found, or failed after its retries.
   *
   * A DOI given twice, or in another ASCII letter case (DOIs are case-insensitive), is looked up once;
   * its positions share the result. The call rejects as a whole, sending nothing more and cancelling
   * the lookups in flight, on a 401, a 403, a 429 that is not retried, or when `signal` aborts.
   *
   * @example
   * ```ts
   * const results = await client.papers.getMany(['10.1000/abc/def', '10.1000/no-such-paper'], {
   *   concurrency: 8,
   * });
   * for (const { doi, paper, error } of results) {
   *   console.log(doi, paper ? paper.title : `failed: ${error.message}`);
   * }
   * ```
   */
  async getMany(dois: Iterable<string>, options?: GetManyOptions): Promise<PaperResult[]> {
    // Loaded on the first bulk lookup: a browser page that never makes one does not download it.
    const { getMany, summarize } = await import('./get-many.js');
    // Each lookup is a `papers.get` call of its own (its own span, a child of this call's).
    const lookup = (doi: string, requestOptions: TransportOptions) =>
      this.#get(spec.lookup, doi, requestOptions);
    return this.traced(
      'papers.getMany',
      undefined,
      undefined,
      () => getMany(dois, options, lookup),
      summarize,
    );
  }
}
