import * as z from 'zod/mini';
import { type Fields, integer, isoDate, pageOf, quartileSchema } from './common.js';

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
/**
 * A journal as `client.journals.list()` returns it.
 *
 * @example
 * ```ts
 * import type { Journal } from 'scholarly-metrics';
 *
 * const journals: Journal[] = await client.journals.list();
 * const top = journals.filter((journal) => journal.quartile === 'Q1').sort((a, b) => b.metric_score - a.metric_score);
 * ```
 */
export type Journal = Fields<z.infer<typeof journalSchema>>;
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
/**
 * A journal's full profile, as `client.journals.get(id)` returns it.
 *
 * @example
 * ```ts
 * import type { JournalProfile } from 'scholarly-metrics';
 *
 * const journal: JournalProfile = await client.journals.get(42);
 * console.log(journal.name, journal.metric_score, journal.quartile, journal.oa ? 'open access' : '');
 * ```
 */
export type JournalProfile = Fields<z.infer<typeof journalProfileSchema>>;

/** A paper in a journal's paper list. */
export const journalPaperSchema = z.looseObject({
  id: integer,
  title: z.string(),
  authors: z.string(),
  year: integer,
  citations: integer,
});
/**
 * A paper as `client.journals.papers(id)` yields it.
 *
 * @example
 * ```ts
 * import type { JournalPaper } from 'scholarly-metrics';
 *
 * const cite = (paper: JournalPaper) => `${paper.authors} (${paper.year}). ${paper.title}.`;
 * for await (const paper of client.journals.papers(42)) console.log(cite(paper));
 * ```
 */
export type JournalPaper = Fields<z.infer<typeof journalPaperSchema>>;
export const journalPaperPageSchema = pageOf(journalPaperSchema);

/** One point of a score history. */
export const scorePointSchema = z.looseObject({ date: isoDate, score: integer });
/**
 * One point of a journal's score history: a `YYYY-MM-DD` date and the score then.
 *
 * @example
 * ```ts
 * import type { ScorePoint } from 'scholarly-metrics';
 *
 * const { history } = await client.journals.score(42);
 * // A chart wants the oldest first; the API promises no order (its sample lists the most recent first).
 * const chart = [...history]
 *   .sort((a: ScorePoint, b: ScorePoint) => a.date.localeCompare(b.date))
 *   .map((point) => ({ x: point.date, y: point.score }));
 * ```
 */
export type ScorePoint = Fields<z.infer<typeof scorePointSchema>>;

/** A journal's current score and its history, in the order the service sends it (none is promised). */
export const scoreHistorySchema = z.looseObject({
  current: integer,
  quartile: quartileSchema,
  history: z.array(scorePointSchema),
});
/**
 * A journal's current score, quartile and history, as `client.journals.score(id)` returns them.
 *
 * @example
 * ```ts
 * import type { ScoreHistory } from 'scholarly-metrics';
 *
 * const { current, quartile, history }: ScoreHistory = await client.journals.score(42);
 * const since = history.map((point) => point.date).sort()[0];
 * console.log(`${current} (${quartile}), ${history.length} points since ${since}`);
 * ```
 */
export type ScoreHistory = Fields<z.infer<typeof scoreHistorySchema>>;
