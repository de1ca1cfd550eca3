/*
 * The `score_updated` webhook event (API §6), as every part of the SDK sees it: the webhook parser
 * returns it, the cache's `apply` takes it, the mock sends it. It lives in core so that the cache's
 * interface can name it; src/schemas/webhook-event.ts holds its zod reference schema, typed by it.
 */

/**
 * A journal's quartile label.
 *
 * The API document shows only `Q1` and leaves the other values unstated, so any string is accepted;
 * the four usual labels are listed for editor completion (`string & {}` keeps them from collapsing
 * into plain `string`).
 *
 * @example
 * ```ts
 * import type { Quartile } from 'scholarly-metrics/webhooks';
 * const top: Quartile = 'Q1';
 * const other: Quartile = 'Q5 (provisional)'; // also fine: the set of labels is not documented
 * ```
 */
export type Quartile = 'Q1' | 'Q2' | 'Q3' | 'Q4' | (string & {});

/**
 * A `score_updated` webhook event: the service's notice that a journal's score changed (API §6).
 * `parseWebhookEvent` returns it, `client.cache.apply` takes it, and the mock's `updateScore` sends it.
 *
 * Fields the server may add in the future are kept on the object, but not named by the type: see
 * the docs (client.md, "Fields the types do not name") for how to read one.
 *
 * @example
 * ```ts
 * import { parseWebhookEvent, type ScoreUpdatedEvent } from 'scholarly-metrics/webhooks';
 * const event: ScoreUpdatedEvent = parseWebhookEvent(body);
 * console.log(`journal ${event.journal_id}: ${event.old_score} → ${event.new_score} (${event.quartile})`);
 * await client.cache?.apply(event);
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
}
