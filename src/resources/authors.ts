import { endpoints } from '../api/endpoints.js';
import type { AuthorListParams } from '../api/params.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { Author, AuthorProfile } from '../schemas/authors.js';

/** An id that may be left out. */
const { authors } = endpoints;

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
    return this.paginate(authors.list, {}, params, options);
  }

  /**
   * One author's profile. `GET /authors/{id}`
   * @example
   * ```ts
   * const author = await client.authors.get(7);
   * ```
   */
  get(id: number, options?: RequestOptions): APIPromise<AuthorProfile> {
    return this.request(authors.get, { id }, undefined, options);
  }
}
