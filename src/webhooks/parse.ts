import * as z from 'zod/mini';
import { WebhookPayloadError } from '../core/errors.js';
import { decodeBody, type WebhookBody, withCause } from './decode-body.js';
import { describeValue, quote } from './describe-value.js';
import { summarizeIssues, toValidationIssues } from './format-issues.js';
import { type ScoreUpdatedEvent, scoreUpdatedEventSchema, type WebhookEvent } from './schema.js';

/**
 * Validates a webhook body and returns the typed event.
 *
 * Accepts the raw body as text or bytes (UTF-8; a leading BOM is ignored) or a value a framework
 * already parsed. The rules are the API document's: `event` is exactly `score_updated`, the ids and
 * scores are (safe) integers, `quartile` is a string, `timestamp` is `YYYY-MM-DDThh:mm:ssZ` and a real
 * date-time. Fields the document does not list are kept.
 *
 * Whatever the input, the only error thrown is {@link WebhookPayloadError}; its `issues` list what
 * did not match, field by field.
 *
 * The API document shows no signature or secret on webhook calls: a valid body proves nothing
 * about who sent it. See the README's Webhooks section for how to restrict the endpoint.
 *
 * @param body - the request body: `string`, `Uint8Array` (or Node `Buffer`, `DataView`, any
 *   `ArrayBufferView`), `ArrayBuffer`, or an already-parsed object.
 * @returns the event, a new object (the input is not modified).
 * @throws {WebhookPayloadError} when the body is not a valid `score_updated` event.
 * @example
 * ```ts
 * import { parseWebhookEvent, WebhookPayloadError } from 'scholarly-metrics/webhooks';
 *
 * try {
 *   const event = parseWebhookEvent(await request.text());
 *   console.log(event.journal_id, event.old_score, '→', event.new_score);
 * } catch (error) {
 *   if (error instanceof WebhookPayloadError) return new Response(error.message, { status: 400 });
 *   throw error;
 * }
 * ```
 */
export function parseWebhookEvent(body: WebhookBody): WebhookEvent {
  try {
    return validate(toRecord(decodeBody(body)));
  } catch (error) {
    if (error instanceof WebhookPayloadError) throw error;
    // Getters, proxies and exotic objects can throw anything; the contract is one error type.
    throw withCause(new WebhookPayloadError('invalid webhook payload: the body could not be read'), error);
  }
}

const knownEvent = 'score_updated';

function validate(record: Record<string, unknown>): ScoreUpdatedEvent {
  const kind = record.event;
  if (typeof kind === 'string' && kind !== knownEvent) {
    const message = `unknown webhook event ${quote(kind)}; this SDK version handles "${knownEvent}" only`;
    throw new WebhookPayloadError(message, [{ path: ['event'], message }]);
  }
  const result = z.safeParse(scoreUpdatedEventSchema, record, { reportInput: true });
  if (!result.success) {
    const issues = toValidationIssues(result.error.issues);
    throw new WebhookPayloadError(`invalid ${knownEvent} webhook event: ${summarizeIssues(issues)}`, issues);
  }
  return result.data;
}

/**
 * A snapshot of the body's own enumerable fields in a fresh null-prototype object.
 *
 * - Only own fields count: a field inherited through a prototype was not in the JSON the service sent.
 * - Each getter runs once, so a value cannot change between validation and use.
 * - A `__proto__` key is refused: copying it onto an ordinary object (as zod does for a loose object)
 *   would replace that object's prototype instead of adding a field.
 */
function toRecord(value: unknown): Record<string, unknown> {
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
  for (const key of Object.keys(source)) {
    if (key === '__proto__') {
      const message = 'the key "__proto__" is not allowed';
      throw new WebhookPayloadError(`invalid webhook payload: ${message}`, [{ path: [key], message }]);
    }
    record[key] = source[key];
  }
  return record;
}

function rootError(message: string): WebhookPayloadError {
  return new WebhookPayloadError(`invalid webhook payload: ${message}`, [{ path: [], message }]);
}
