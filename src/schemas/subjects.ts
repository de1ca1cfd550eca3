import * as z from 'zod/mini';
import { integer } from './common.js';

/** A subject area with its aggregate counts. */
export const subjectSchema = z.looseObject({
  id: integer,
  name: z.string(),
  slug: z.string(),
  journals: integer,
  papers: integer,
  citations: integer,
});
export type Subject = z.infer<typeof subjectSchema>;
export const subjectListSchema = z.array(subjectSchema);
