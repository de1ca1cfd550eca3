import * as z from 'zod/mini';
import { integer } from './common.js';

/** A country with its aggregate counts. */
export const countrySchema = z.looseObject({
  id: integer,
  name: z.string(),
  /** A flag emoji. */
  flag: z.string(),
  journals: integer,
  papers: integer,
  citations: integer,
});
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);
