import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { checkId, checkParams, checkPositiveInteger, checkString } from '../core/params.js';
import { segment } from '../core/path.js';
import { APIResource } from '../core/resource.js';
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
      'authors.list',
      (page) => {
        const p = checkParams(params);
        return {
          path: '/authors',
          query: {
            q: checkString('q', p.q),
            country_id: p.country_id === undefined ? undefined : checkId('country_id', p.country_id),
            field_id: p.field_id === undefined ? undefined : checkId('field_id', p.field_id),
            sort: checkString('sort', p.sort),
            page: checkPositiveInteger('page', page),
          },
        };
      },
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
      'authors.get',
      () => ({ path: `/authors/${segment(checkId('id', id))}` }),
      shapes.authorProfile,
      options,
    );
  }
}
