import * as z from 'zod/mini';
import { type Quartile, quartileSchema } from './quartile.js';

/**
 * A `score_updated` webhook event: the service's notice that a journal's score changed (API §6).
 *
 * Fields the server may add in the future are kept, typed as `unknown`.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent, type ScoreUpdatedEvent } from 'scholarly-metrics/webhooks';
 * const event: ScoreUpdatedEvent = parseWebhookEvent(body);
 * console.log(`journal ${event.journal_id}: ${event.old_score} → ${event.new_score} (${event.quartile})`);
 * ```
 */
export interface ScoreUpdatedEvent {
  /** The event kind; the only one the API document describes. */
  event: 'score_updated';
  /** The journal whose score changed. */
  journal_id: number;
  /** The score before the change. */
  old_score: number;
  /** The score after the change. */
  new_score: number;
  /** The journal's quartile label, e.g. `Q1`. */
  quartile: Quartile;
  /** When the score changed: UTC, whole seconds, exactly `YYYY-MM-DDThh:mm:ssZ`. */
  timestamp: string;
  /** Fields the document does not list, kept as received. */
  [extra: string]: unknown;
}

/**
 * Every webhook event the SDK knows. The API document describes one kind, so this is
 * {@link ScoreUpdatedEvent} for now; narrow on `event` so code keeps compiling when kinds are added.
 *
 * @example
 * ```ts
 * import type { WebhookEvent } from 'scholarly-metrics/webhooks';
 * function handle(event: WebhookEvent) {
 *   if (event.event === 'score_updated') console.log(event.new_score);
 * }
 * ```
 */
export type WebhookEvent = ScoreUpdatedEvent;

/**
 * A safe integer (a larger JSON number was already rounded by JSON.parse, so it cannot be trusted).
 *
 * zod reports a non-number given to `z.int()` as "expected number"; the message here says what the
 * document means. Returning `undefined` leaves other issues (too big, fractional) to the formatter.
 */
const integer = () =>
  z.int({
    error: (issue) =>
      issue.code === 'invalid_type' && issue.expected === 'number' ? 'expected an integer' : undefined,
  });

/**
 * `YYYY-MM-DDThh:mm:ssZ` exactly, as the document writes it: UTC (`Z`, no offset), no fractional
 * seconds, and a real calendar date-time (zod's pattern knows month lengths and leap years).
 */
const timestampSchema = z.iso.datetime({ offset: false, local: false, precision: 0 });

/**
 * The zod/mini schema of a {@link ScoreUpdatedEvent}. Unknown fields pass through (loose object).
 *
 * Prefer `parseWebhookEvent`, which also decodes the body, refuses `__proto__` keys and throws a
 * `WebhookPayloadError` with readable messages; use the schema to compose your own validation.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { scoreUpdatedEventSchema } from 'scholarly-metrics/webhooks';
 * const result = z.safeParse(scoreUpdatedEventSchema, JSON.parse(text));
 * if (result.success) console.log(result.data.journal_id);
 * ```
 */
export const scoreUpdatedEventSchema = z.looseObject({
  event: z.literal('score_updated'),
  journal_id: integer(),
  old_score: integer(),
  new_score: integer(),
  quartile: quartileSchema,
  timestamp: timestampSchema,
});
