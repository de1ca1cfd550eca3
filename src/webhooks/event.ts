import { maxBodyDepth } from '../core/depth.js';
import { describeValue, quote } from '../core/describe-value.js';
import { type ValidationIssue, WebhookPayloadError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { summarizeIssues } from '../core/issues.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { checkEvent, fields, eventKind as kind, type Refusals } from './event-checks.js';

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
 * The checks are written by hand (./event-checks.ts) so that the webhook entry ships no zod (its
 * browser size budget is in scripts/size-limit.config.mjs; BENCHMARKS.md has the figure). The zod/mini
 * schema in src/schemas/webhook-event.ts is the reference: test/webhooks/event-reference.test.ts holds
 * the two to the same verdicts, outputs and messages. Here are the sentences for what they refuse.
 */

/** `invalid webhook payload: …`, with the one issue at `path`. */
function payloadError(path: PropertyKey[], message: string): WebhookPayloadError {
  const issues: ValidationIssue[] = [{ path, message }];
  return new WebhookPayloadError(`invalid webhook payload: ${summarizeIssues(issues)}`, issues);
}

/** `invalid webhook payload: …`, about the body itself (its issue's path is empty). */
function rootError(message: string): WebhookPayloadError {
  return new WebhookPayloadError(`invalid webhook payload: ${message}`, [{ path: [], message }]);
}

/** The error for each refusal, by its reason. */
const refusals: { [W in keyof Refusals]: (detail: Refusals[W]) => WebhookPayloadError } = {
  value: (value) => rootError(`expected a JSON object, got ${describeValue(value)}`),
  key: (path) => {
    const key = path.at(-1) as string;
    return payloadError(path, `the key "${key}" is not allowed: it shadows Object.prototype.${key}`);
  },
  depth: (path) => payloadError(path, `nested deeper than ${maxBodyDepth} levels of objects and arrays`),
  fields: (record) => {
    const received = record.event;
    // An unknown kind is said alone: its other fields may follow a document this version does not know.
    if (typeof received === 'string' && received !== kind) {
      const message = `unknown webhook event ${quote(received)}; this SDK version handles "${kind}" only`;
      return new WebhookPayloadError(message, [{ path: ['event'], message }]);
    }
    const issues = fieldIssues(record);
    return new WebhookPayloadError(`invalid ${kind} webhook event: ${summarizeIssues(issues)}`, issues);
  },
};

/** An issue for each field whose check refused its value, in the document's order. */
function fieldIssues(record: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [key, fits] of Object.entries(fields)) {
    const field = record[key];
    if (fits(field)) continue;
    const expected = expectation(key, field);
    // A missing key and an explicit `undefined` read the same way: neither exists in JSON.
    const message =
      field === undefined ? `missing (${expected})` : `${expected}, got ${describeValue(field)}`;
    issues.push({ path: [key], message });
  }
  return issues;
}

/** What a field should have held, for a value its check refused. */
function expectation(key: string, value: unknown): string {
  if (key === 'event') return `expected "${kind}"`;
  // A string is refused only by the timestamp's form: the quartile takes any.
  if (key === 'quartile' || key === 'timestamp') {
    return typeof value === 'string'
      ? 'expected a UTC date-time "YYYY-MM-DDThh:mm:ssZ" (a real date, whole seconds, Z)'
      : 'expected a string';
  }
  if (!Number.isInteger(value)) return 'expected an integer';
  const bound =
    (value as number) > 0 ? `at most ${Number.MAX_SAFE_INTEGER}` : `at least ${Number.MIN_SAFE_INTEGER}`;
  return `expected a safe integer (${bound})`;
}

/**
 * Checks a decoded body and returns the event: a new plain object, the documented fields first, then
 * the others as received.
 *
 * @throws {WebhookPayloadError} listing every field that does not fit (or naming an unknown event
 *   kind, a key that shadows a member of `Object.prototype` at any depth, or a nesting too deep); other errors only from hostile objects (throwing getters, proxies), which the caller wraps.
 */
export function validateEvent(value: unknown): WebhookEvent {
  // What is no object at all is left to the checks, which refuse it.
  return checkEvent(isRecord(value) ? ownFields(value) : value, (why, detail) => {
    throw (refusals[why] as (detail: unknown) => WebhookPayloadError)(detail);
  });
}

/**
 * A snapshot of a body's own enumerable fields in a null-prototype object, once it is known to be read.
 *
 * - A body not read yet (a promise, a stream) is refused: only the parser is handed one, as a relayed
 *   message is always text.
 * - Only own fields count: a field inherited through a prototype was not in the JSON the service sent.
 * - Each getter runs once, so a value cannot change between validation and use.
 * - A `__proto__` key becomes an own field of the null-prototype copy, for the key check to refuse.
 */
function ownFields(body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.then === 'function') throw rootError('got a Promise; await the body first');
  if (typeof body.getReader === 'function' || typeof body.arrayBuffer === 'function') {
    throw rootError(
      'got a stream, Blob, Request or Response; read its body first, e.g. `await request.text()`',
    );
  }
  const record: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(body)) record[key] = body[key];
  return record;
}
