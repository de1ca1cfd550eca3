import * as z from 'zod/mini';
import { integer, pageOf, unpublished } from './common.js';
import type { PaperSummary } from './papers.js';

/** An author in the author list. */
export const authorSchema = z.looseObject({
  id: integer,
  name: z.string(),
  /** Affiliation. */
  affil: z.string(),
  total_papers: integer,
  total_cites: integer,
});
export type Author = z.infer<typeof authorSchema>;
export const authorPageSchema = pageOf(authorSchema);

/** An author's profile. `papers` has no published element shape: elements are passed through as sent. */
export const authorProfileSchema = z.looseObject({
  id: integer,
  name: z.string(),
  orcid: z.string(),
  affil: z.string(),
  h_index: integer,
  papers: z.array(unpublished<PaperSummary>()),
});
export type AuthorProfile = z.infer<typeof authorProfileSchema>;
