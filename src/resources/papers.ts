import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import {
  checkBoolean,
  checkDoi,
  checkInteger,
  checkParams,
  checkPositiveInteger,
  checkString,
} from '../core/params.js';
import { segment } from '../core/path.js';
import { APIResource } from '../core/resource.js';
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
      'papers.search',
      (page) => {
        const p = checkParams(params);
        return {
          path: '/papers',
          query: {
            q: checkString('q', p.q),
            year: checkInteger('year', p.year),
            oa: checkBoolean('oa', p.oa),
            sort: checkString('sort', p.sort),
            page: checkPositiveInteger('page', page),
            per_page: checkPositiveInteger('per_page', p.per_page),
          },
        };
      },
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
    return this.request(
      'papers.get',
      () => ({ path: `/papers/${segment(checkDoi(doi))}` }),
      shapes.paper,
      options,
    );
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
    const lookup = (doi: string, requestOptions: TransportOptions) => this.get(doi, requestOptions);
    return this.traced(
      'papers.getMany',
      undefined,
      undefined,
      () => getMany(dois, options, lookup),
      summarize,
    );
  }
}
