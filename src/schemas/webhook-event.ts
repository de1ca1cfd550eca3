import * as z from 'zod/mini';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { integer, quartileSchema } from './common.js';

/**
 * The reference definition of a `score_updated` webhook event (API §6), in zod/mini.
 *
 * The webhook entry does not use it: `parseWebhookEvent` must be synchronous and small, so it checks
 * by hand (src/webhooks/event.ts) and ships no zod. test/webhooks/event-reference.test.ts holds the
 * two to the same verdicts, outputs and messages (through src/core/issues.ts) on generated inputs;
 * the custom messages below are there so that the messages can be compared too.
 */

/**
 * `YYYY-MM-DDThh:mm:ssZ` exactly, as the document writes it: UTC (`Z`, no offset), no fractional
 * seconds, and a real calendar date-time (zod's pattern knows month lengths and leap years).
 */
const timestamp = z.iso.datetime({
  offset: false,
  local: false,
  precision: 0,
  error: (issue) =>
    issue.code === 'invalid_format'
      ? 'expected a UTC date-time "YYYY-MM-DDThh:mm:ssZ" (a real date, whole seconds, Z)'
      : undefined,
});

/**
 * A `score_updated` event; unknown fields pass through (loose object). Typed by
 * {@link ScoreUpdatedEvent}: a field of the type that the schema lacks or checks otherwise is a
 * compile error here.
 */
export const scoreUpdatedEventSchema = z.looseObject({
  event: z.literal('score_updated'),
  journal_id: integer,
  old_score: integer,
  new_score: integer,
  quartile: quartileSchema,
  timestamp,
}) satisfies z.ZodMiniType<ScoreUpdatedEvent, unknown>;
