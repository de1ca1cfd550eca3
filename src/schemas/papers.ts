import * as z from 'zod/mini';
import { type Fields, integer, pageOf, unpublished } from './common.js';

/**
 * An element of the paper search results. The API document does not publish its shape, so it is
 * passed through as sent; these are the fields a paper is expected to have, each possibly absent.
 *
 * @example
 * ```ts
 * import type { PaperSummary } from 'scholarly-metrics';
 *
 * // Any field may be missing, so a label falls back from one to the next.
 * const label = (paper: PaperSummary) => paper.title ?? paper.doi ?? `paper ${paper.id ?? '?'}`;
 * for await (const paper of client.papers.search({ q: 'graphene' })) console.log(label(paper));
 * ```
 */
export type PaperSummary = {
  id?: number;
  title?: string;
  authors?: string;
  doi?: string;
  year?: number;
  citations?: number;
  /**
   * Open access. Not promised by the API document (the element shape is not shown), but `oa` is a
   * search filter, so a result is expected to say it.
   */
  oa?: boolean;
  /** The journal the paper appeared in; not promised by the API document either. */
  journal_id?: number;
};
/**
 * The fields a paper summary is expected to carry, in the order tables show them: every field of
 * `PaperSummary` (a type test holds the two together). The OpenAPI document lists them.
 */
export const paperSummaryFields = [
  'id',
  'title',
  'authors',
  'doi',
  'year',
  'citations',
  'oa',
  'journal_id',
] as const satisfies readonly (keyof PaperSummary)[];
export const paperSummarySchema = unpublished<PaperSummary>();
export const paperSummaryPageSchema = pageOf(paperSummarySchema);

/** A paper, as the DOI lookup returns it. */
export const paperSchema = z.looseObject({
  id: integer,
  title: z.string(),
  authors: z.string(),
  doi: z.string(),
  year: integer,
  citations: integer,
  abstract: z.string(),
});
/**
 * A paper, as `client.papers.get(doi)` returns it.
 *
 * @example
 * ```ts
 * import type { Paper } from 'scholarly-metrics';
 *
 * const paper: Paper = await client.papers.get('10.1000/xyz123');
 * console.log(paper.title, paper.year, paper.citations, paper.abstract);
 * ```
 */
export type Paper = Fields<z.infer<typeof paperSchema>>;
