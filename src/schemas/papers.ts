import * as z from 'zod/mini';
import { integer, pageOf, unpublished } from './common.js';

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
export interface PaperSummary {
  id?: number;
  title?: string;
  authors?: string;
  doi?: string;
  year?: number;
  citations?: number;
  [field: string]: unknown;
}
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
export type Paper = z.infer<typeof paperSchema>;
