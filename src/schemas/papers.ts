import * as z from 'zod/mini';
import { integer, pageOf, unpublished } from './common.js';

/**
 * An element of the paper search results. The API document does not publish its shape, so it is
 * passed through as sent; these are the fields a paper is expected to have, each possibly absent.
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
export type Paper = z.infer<typeof paperSchema>;
