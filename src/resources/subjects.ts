import type { APIPromise } from '../core/api-promise.js';
import { type RequestOptions, requestOptionNames } from '../core/options/request.js';
import { APIResource, type ResourceMethod } from '../core/resource.js';
import { shapes } from '../schemas/shapes.js';
import type { Subject } from '../schemas/subjects.js';

/** What `subjects.list` takes: no parameters, the request options. */
const list: ResourceMethod = { method: 'subjects.list', checks: {}, options: requestOptionNames };

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
    return this.request(list, () => ({ path: '/subjects' }), shapes.subjectList, options);
  }
}
