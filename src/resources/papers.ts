import { endpoints } from '../api/endpoints.js';
import type { PaperSearchParams } from '../api/params.js';
import type { APIPromise } from '../core/api-promise.js';
import { describeValue } from '../core/describe-value.js';
import { checkOptionNames } from '../core/endpoint.js';
import {
  AuthenticationError,
  InvalidParameterError,
  MetricError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
} from '../core/errors.js';
import { onDemand } from '../core/on-demand.js';
import { checkInteger, checkObject, type OptionNames } from '../core/options/checks.js';
import { checkRequestOptions, type RequestOptions, requestOptionNames } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { TransportOptions } from '../core/transport.js';
import type { Paper, PaperSummary } from '../schemas/papers.js';
import type { FirstLoadParts, GetManyOptions, PaperResult } from './get-many.js';

/** The options a lookup of `papers.getMany` hands to `papers.get`: the request options and the core's. */
const lookupOptionNames: OptionNames<TransportOptions> = {
  ...requestOptionNames,
  onRetry: true,
  isResult: true,
  attempts: true,
};

const { papers } = endpoints;

/** Loaded on the first bulk lookup: a browser page that never makes one does not download it. */
const loadGetMany = onDemand(() => import('./get-many.js'));

/** What the on-demand getMany uses of the first load (see FirstLoadParts in ./get-many.ts). */
const getManyParts: FirstLoadParts = {
  describeValue,
  checkOptionNames,
  checkInteger,
  checkObject,
  checkRequestOptions,
  requestOptionNames,
  MetricError,
  InvalidParameterError,
  AuthenticationError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
};

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
    return this.paginate(papers.search, {}, params, options);
  }

  /**
   * One paper by its DOI, sent as a single percent-encoded path segment. `GET /papers/{doi}`
   * @example
   * ```ts
   * const paper = await client.papers.get('10.1000/xyz123');
   * ```
   */
  get(doi: string, options?: RequestOptions): APIPromise<Paper> {
    return this.request(papers.get, { doi }, undefined, options);
  }

  /**
   * Many papers by DOI, each looked up as by {@link Papers.get}, `concurrency` at a time (default 4).
   * Resolves to one {@link PaperResult} per DOI, in the order given: `{ doi, paper }`, or
   * `{ doi, error }` when that DOI was refused before sending, not found, or failed after its retries.
   *
   * A DOI given twice, or in another ASCII letter case (DOIs are case-insensitive), is looked up once;
   * its positions share the result. The call rejects as a whole, sending nothing more and cancelling
   * the lookups in flight, on a 401, a 403, any 429 (one that outlasted its retries too), or when
   * `signal` aborts.
   *
   * @param dois - an array, a Set or any iterable of DOIs; not one DOI alone (a string is an iterable
   *   of strings too, so its type says `object`).
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
  async getMany(dois: Iterable<string> & object, options?: GetManyOptions): Promise<PaperResult[]> {
    const { getMany, summarize } = await loadGetMany();
    // Each lookup is a `papers.get` call of its own (its own span, a child of this call's).
    const lookup = (doi: string, requestOptions: TransportOptions) =>
      this.request(papers.get, { doi }, undefined, requestOptions, lookupOptionNames);
    return this.traced(
      { name: 'papers.getMany' },
      undefined,
      undefined,
      () =>
        getMany(dois, options, lookup, getManyParts, this.transport).catch((error: unknown) => {
          // Its options are refused here, not by the transport: a refused name may be the key.
          throw this.transport.withoutKey(error);
        }),
      summarize,
    );
  }
}
