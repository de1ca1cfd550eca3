import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options/request.js';
import { checkOneOf, checkParams } from '../core/params.js';
import { APIResource } from '../core/resource.js';
import type { Country } from '../schemas/countries.js';
import { shapes } from '../schemas/shapes.js';

/**
 * Parameters of {@link Countries.list}.
 *
 * @example
 * ```ts
 * import type { CountryListParams } from 'scholarly-metrics';
 *
 * const params: CountryListParams = { show: 'all' }; // countries without journals too
 * const countries = await client.countries.list(params);
 * ```
 */
export interface CountryListParams {
  /** `active`: countries with journals; `all`: every country. @default the server's */
  show?: 'active' | 'all' | undefined;
}

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
    return this.request(
      'countries.list',
      () => ({
        path: '/countries',
        query: { show: checkOneOf('show', checkParams(params).show, ['active', 'all']) },
      }),
      shapes.countryList,
      options,
    );
  }
}
