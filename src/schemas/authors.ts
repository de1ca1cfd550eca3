import * as z from 'zod/mini';
import { type Fields, integer, pageOf } from './common.js';
import { paperSummarySchema } from './papers.js';

/** An author in the author list. */
export const authorSchema = z.looseObject({
  id: integer,
  name: z.string(),
  /** Affiliation. */
  affil: z.string(),
  total_papers: integer,
  total_cites: integer,
});
/**
 * An author as `client.authors.list()` yields it.
 *
 * @example
 * ```ts
 * import type { Author } from 'scholarly-metrics';
 *
 * const authors: Author[] = [];
 * for await (const author of client.authors.list({ q: 'curie' })) authors.push(author);
 * authors.sort((a, b) => b.total_cites - a.total_cites);
 * ```
 */
export type Author = Fields<z.infer<typeof authorSchema>>;
export const authorPageSchema = pageOf(authorSchema);

/**
 * An author's profile. `papers` has no published element shape: each is taken for a paper summary,
 * passed through as sent.
 */
export const authorProfileSchema = z.looseObject({
  id: integer,
  name: z.string(),
  orcid: z.string(),
  affil: z.string(),
  h_index: integer,
  papers: z.array(paperSummarySchema),
});
/**
 * An author's profile, as `client.authors.get(id)` returns it.
 *
 * @example
 * ```ts
 * import type { AuthorProfile } from 'scholarly-metrics';
 *
 * const author: AuthorProfile = await client.authors.get(7);
 * console.log(author.name, author.orcid, author.h_index, author.papers.length);
 * ```
 */
export type AuthorProfile = Fields<z.infer<typeof authorProfileSchema>>;
