import type { APIPromise } from '../core/api-promise.js';
import { type RequestOptions, requestOptionNames } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { checkId, checkPositiveInteger, checkQuery, checkString, type ParamChecks } from '../core/params.js';
import { segment } from '../core/path.js';
import { APIResource, pageOptionNames, type ResourceMethod } from '../core/resource.js';
import type { Author, AuthorProfile } from '../schemas/authors.js';
import { shapes } from '../schemas/shapes.js';

/**
 * Parameters of {@link Authors.list}.
 *
 * @example
 * ```ts
 * import type { AuthorListParams } from 'scholarly-metrics';
 *
 * const params: AuthorListParams = { q: 'curie', country_id: 7 };
 * for await (const author of client.authors.list(params)) console.log(author.name, author.affil);
 * ```
 */
export interface AuthorListParams {
  /** Search term. */
  q?: string | undefined;
  /** Only authors of this country. */
  country_id?: number | undefined;
  /** Only authors of this field. */
  field_id?: number | undefined;
  /** Sort selector; the API document lists no values, so any string is sent as is. */
  sort?: string | undefined;
  /** The page to start from (1-based). @default 1 */
  page?: number | undefined;
}

/** An id that may be left out. */
const optionalId = (name: string, value: unknown) => (value === undefined ? undefined : checkId(name, value));

/** What each method takes: its parameters, and the names of its request options. */
const spec = {
  list: {
    method: 'authors.list',
    checks: {
      q: checkString,
      country_id: optionalId,
      field_id: optionalId,
      sort: checkString,
      page: checkPositiveInteger,
    } satisfies ParamChecks<AuthorListParams>,
    options: pageOptionNames,
  },
  get: { method: 'authors.get', checks: {}, options: requestOptionNames },
} satisfies Record<string, ResourceMethod>;

/**
 * `client.authors`: the author list and profiles.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl });
 * for await (const author of client.authors.list({ q: 'curie' })) {
 *   const profile = await client.authors.get(author.id);
 *   console.log(profile.name, profile.orcid, profile.h_index);
 * }
 * ```
 */
export class Authors extends APIResource {
  /**
   * Lists authors, page by page. `GET /authors`
   * @example
   * ```ts
   * for await (const author of client.authors.list({ country_id: 3 })) console.log(author.name);
   * ```
   */
  list(params?: AuthorListParams, options?: PageRequestOptions): PagePromise<Author> {
    return this.paginate(
      spec.list,
      (page) => ({ path: '/authors', query: checkQuery(spec.list, params, { page }) }),
      shapes.authorPage,
      params,
      options,
    );
  }

  /**
   * One author's profile. `GET /authors/{id}`
   * @example
   * ```ts
   * const author = await client.authors.get(7);
   * ```
   */
  get(id: number, options?: RequestOptions): APIPromise<AuthorProfile> {
    return this.request(
      spec.get,
      () => ({ path: `/authors/${segment(checkId('id', id))}` }),
      shapes.authorProfile,
      options,
    );
  }
}
