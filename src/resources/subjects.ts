import { endpoints } from '../api/endpoints.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import { APIResource } from '../core/resource.js';
import type { Subject } from '../schemas/subjects.js';

/** What `subjects.list` takes: no parameters, the request options. */
/**
 * `client.subjects`: subject areas with their counts.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl });
 * const subjects = await client.subjects.list();
 * ```
 */
export class Subjects extends APIResource {
  /**
   * Every subject area. `GET /subjects`
   * @example
   * ```ts
   * const subjects = await client.subjects.list();
   * ```
   */
  list(options?: RequestOptions): APIPromise<Subject[]> {
    return this.request(endpoints.subjects.list, {}, undefined, options);
  }
}
