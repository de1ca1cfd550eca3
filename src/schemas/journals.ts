import * as z from 'zod/mini';
import { integer, isoDate, pageOf, quartileSchema } from './common.js';

/** A journal as the journal list returns it. */
export const journalSchema = z.looseObject({
  id: integer,
  name: z.string(),
  issn: z.string(),
  metric_score: integer,
  quartile: quartileSchema,
  country_id: integer,
  field_id: integer,
  total_papers: integer,
  total_cites: integer,
});
export type Journal = z.infer<typeof journalSchema>;
export const journalListSchema = z.array(journalSchema);

/** A journal's full profile, as `GET /journals/{id}` returns it. */
export const journalProfileSchema = z.looseObject({
  id: integer,
  name: z.string(),
  metric_score: integer,
  quartile: quartileSchema,
  description: z.string(),
  /** Open access. */
  oa: z.boolean(),
});
export type JournalProfile = z.infer<typeof journalProfileSchema>;

/** A paper in a journal's paper list. */
export const journalPaperSchema = z.looseObject({
  id: integer,
  title: z.string(),
  authors: z.string(),
  year: integer,
  citations: integer,
});
export type JournalPaper = z.infer<typeof journalPaperSchema>;
export const journalPaperPageSchema = pageOf(journalPaperSchema);

/** One point of a score history. */
export const scorePointSchema = z.looseObject({ date: isoDate, score: integer });
export type ScorePoint = z.infer<typeof scorePointSchema>;

/** A journal's current score and its history, most recent entry first as the service sends it. */
export const scoreHistorySchema = z.looseObject({
  current: integer,
  quartile: quartileSchema,
  history: z.array(scorePointSchema),
});
export type ScoreHistory = z.infer<typeof scoreHistorySchema>;
