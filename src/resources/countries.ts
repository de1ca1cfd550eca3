import { endpoints } from '../api/endpoints.js';
import type { CountryListParams } from '../api/params.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import { APIResource } from '../core/resource.js';
import type { Country } from '../schemas/countries.js';

/** What `countries.list` takes: its parameters, and the request options. */
/**
 * `client.countries`: countries with their counts.
 *
 * @example
 * ```ts
 * const client = new MetricClient({ apiKey, baseUrl });
 * for (const country of await client.countries.list()) console.log(country.flag, country.name, country.journals);
 * ```
 */
export class Countries extends APIResource {
  /**
   * Countries. `GET /countries`
   * @example
   * ```ts
   * const all = await client.countries.list({ show: 'all' });
   * ```
   */
  list(params?: CountryListParams, options?: RequestOptions): APIPromise<Country[]> {
    return this.request(endpoints.countries.list, {}, params, options);
  }
}
