import { describeValue, quote } from '../core/describe-value.js';
import { type ValidationIssue, WebhookPayloadError } from '../core/errors.js';
import { summarizeIssues } from '../core/issues.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { checkNested } from './keys.js';

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

/*
 * The checks are written by hand so that the webhook entry ships no zod (its browser size budget is
 * in scripts/size-limit.config.mjs; BENCHMARKS.md has the figure). The zod/mini schema
 * in src/schemas/webhook-event.ts is the reference: test/webhooks/event-reference.test.ts holds the
 * two to the same verdicts, outputs and messages.
 */

const kind = 'score_updated';

/**
 * Each documented field, in the document's order (which is also the order of issues and of the
 * returned object's keys), with its check: what was expected, or '' when the value fits.
 */
const fields: Record<string, (value: unknown) => string> = {
  event: (value) => (value === kind ? '' : `expected "${kind}"`),
  // Identifiers start at 1: 0 or a negative id names no journal.
  journal_id: (value) => checkInteger(value) || ((value as number) > 0 ? '' : 'expected a positive integer'),
  old_score: checkInteger,
  new_score: checkInteger,
  quartile: (value) => (typeof value === 'string' ? '' : 'expected a string'),
  timestamp: (value) =>
    typeof value !== 'string'
      ? 'expected a string'
      : isTimestamp(value)
        ? ''
        : 'expected a UTC date-time "YYYY-MM-DDThh:mm:ssZ" (a real date, whole seconds, Z)',
};

/** A safe integer: a larger JSON number was already rounded by JSON.parse, so it cannot be trusted. */
function checkInteger(value: unknown): string {
  if (!Number.isInteger(value)) return 'expected an integer';
  if (Number.isSafeInteger(value)) return '';
  return (value as number) > 0
    ? `expected a safe integer (at most ${Number.MAX_SAFE_INTEGER})`
    : `expected a safe integer (at least ${Number.MIN_SAFE_INTEGER})`;
}

/** `YYYY-MM-DDThh:mm:ssZ` exactly (ASCII digits; no fraction, no offset, upper-case T and Z). */
const timestampForm = /^(\d{4})-(\d\d)-(\d\d)T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/** The form above, on a day that exists: the Gregorian calendar, proleptic before 1582 (as ISO 8601). */
function isTimestamp(text: string): boolean {
  const match = timestampForm.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/**
 * Checks a decoded body and returns the event: a new plain object, the documented fields first, then
 * the others as received.
 *
 * @throws {WebhookPayloadError} listing every field that does not fit (or naming an unknown event
 *   kind, a key that shadows a member of `Object.prototype` at any depth, or a nesting too deep); other errors only from hostile objects (throwing getters, proxies), which the caller wraps.
 */
export function validateEvent(value: unknown): WebhookEvent {
  const record = ownFields(value);
  checkNested(record);
  const received = record.event;
  if (typeof received === 'string' && received !== kind) {
    const message = `unknown webhook event ${quote(received)}; this SDK version handles "${kind}" only`;
    throw new WebhookPayloadError(message, [{ path: ['event'], message }]);
  }
  const event: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [key, check] of Object.entries(fields)) {
    const field = record[key];
    const expected = check(field);
    if (expected !== '') {
      // A missing key and an explicit `undefined` read the same way: neither exists in JSON.
      const got = field === undefined ? `missing (${expected})` : `${expected}, got ${describeValue(field)}`;
      issues.push({ path: [key], message: got });
    }
    event[key] = field;
  }
  if (issues.length > 0) {
    throw new WebhookPayloadError(`invalid ${kind} webhook event: ${summarizeIssues(issues)}`, issues);
  }
  for (const key of Object.keys(record)) if (!Object.hasOwn(fields, key)) event[key] = record[key];
  return event as unknown as WebhookEvent;
}

/**
 * A snapshot of the body's own enumerable fields in a null-prototype object.
 *
 * - Only own fields count: a field inherited through a prototype was not in the JSON the service sent.
 * - Each getter runs once, so a value cannot change between validation and use.
 * - A `__proto__` key becomes an own field of the null-prototype copy, for checkNested to refuse.
 */
function ownFields(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw rootError(`expected a JSON object, got ${describeValue(value)}`);
  }
  const source = value as Record<string, unknown>;
  if (typeof source.then === 'function') throw rootError('got a Promise; await the body first');
  if (typeof source.getReader === 'function' || typeof source.arrayBuffer === 'function') {
    throw rootError(
      'got a stream, Blob, Request or Response; read its body first, e.g. `await request.text()`',
    );
  }
  const record: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(source)) record[key] = source[key];
  return record;
}

function rootError(message: string): WebhookPayloadError {
  return new WebhookPayloadError(`invalid webhook payload: ${message}`, [{ path: [], message }]);
}
