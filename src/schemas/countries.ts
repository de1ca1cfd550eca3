import * as z from 'zod/mini';
import { aggregateCounts, type Fields, integer } from './common.js';

/** A country with its aggregate counts. */
export const countrySchema = z.looseObject({
  id: integer,
  name: z.string(),
  /** A flag emoji. */
  flag: z.string(),
  ...aggregateCounts,
});
/**
 * A country with its counts, as `client.countries.list()` returns them.
 *
 * @example
 * ```ts
 * import type { Country } from 'scholarly-metrics';
 *
 * const countries: Country[] = await client.countries.list({ show: 'all' });
 * for (const country of countries) console.log(country.flag, country.name, country.journals, country.citations);
 * ```
 */
export type Country = Fields<z.infer<typeof countrySchema>>;
export const countryListSchema = z.array(countrySchema);
