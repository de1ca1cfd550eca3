import * as z from 'zod/mini';
import { aggregateCounts, type Fields, integer } from './common.js';

/** A subject area with its aggregate counts. */
export const subjectSchema = z.looseObject({
  id: integer,
  name: z.string(),
  slug: z.string(),
  ...aggregateCounts,
});
/**
 * A subject area with its counts, as `client.subjects.list()` returns them.
 *
 * @example
 * ```ts
 * import type { Subject } from 'scholarly-metrics';
 *
 * const subjects: Subject[] = await client.subjects.list();
 * const bySlug = new Map(subjects.map((subject) => [subject.slug, subject]));
 * ```
 */
export type Subject = Fields<z.infer<typeof subjectSchema>>;
export const subjectListSchema = z.array(subjectSchema);
