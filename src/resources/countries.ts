import type { APIPromise } from '../core/api-promise.js';
import { type RequestOptions, requestOptionNames } from '../core/options/request.js';
import { checkOneOf, checkQuery, type ParamChecks } from '../core/params.js';
import { APIResource, type ResourceMethod } from '../core/resource.js';
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

/** What `countries.list` takes: its parameters, and the request options. */
const list: ResourceMethod = {
  method: 'countries.list',
  checks: {
    show: (name, value) => checkOneOf(name, value, ['active', 'all']),
  } satisfies ParamChecks<CountryListParams>,
  options: requestOptionNames,
};

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
      list,
      () => ({ path: '/countries', query: checkQuery(list, params) }),
      shapes.countryList,
      options,
    );
  }
}
