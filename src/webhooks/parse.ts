import { WebhookPayloadError } from '../core/errors.js';
import { decodeBody, withCause } from './decode-body.js';
import { validateEvent, type WebhookEvent } from './event.js';

/** What is no body yet, only the way to one. */
type NotYetABody = PromiseLike<unknown> | Request | Response | Blob | ReadableStream | AsyncIterable<unknown>;

/**
 * `never` for what may be no body yet: a promise (`parseWebhookEvent(request.text())`, a forgotten
 * `await`), a Request or Response, a Blob, a stream, or a union holding one. Anything else is taken,
 * `unknown` and `any` too (a framework's parsed body), and checked at run time. Exported for code that
 * passes a body of its own type parameter on to {@link parseWebhookEvent}, naming it as the type
 * argument (a string or an event of a narrower type needs none).
 *
 * @example
 * ```ts
 * import { parseWebhookEvent, type ReadBody, type WebhookEvent } from 'scholarly-metrics/webhooks';
 *
 * function journalOf<Body>(body: Body & ReadBody<Body>): number {
 *   const event: WebhookEvent = parseWebhookEvent<Body>(body);
 *   return event.journal_id;
 * }
 * const delivered = { event: 'score_updated', journal_id: 7, old_score: 60, new_score: 75 };
 * journalOf({ ...delivered, quartile: 'Q2', timestamp: '2026-03-02T10:00:00Z' }); // → 7
 * ```
 */
export type ReadBody<Body> = 0 extends 1 & Body
  ? unknown
  : [Extract<Body, NotYetABody>] extends [never]
    ? unknown
    : never;

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
export function parseWebhookEvent(body: WebhookEvent | string): WebhookEvent;
/**
 * Validates a body of any other type, as the signature above does: bytes, a value a framework parsed,
 * or a body of the caller's own type parameter (see {@link ReadBody}).
 *
 * @example
 * ```ts
 * import { parseWebhookEvent } from 'scholarly-metrics/webhooks';
 *
 * const event = parseWebhookEvent(new Uint8Array(await request.arrayBuffer()));
 * ```
 */
export function parseWebhookEvent<Body>(body: Body & ReadBody<Body>): WebhookEvent;
export function parseWebhookEvent<Body>(body: Body & ReadBody<Body>): WebhookEvent {
  try {
    return validateEvent(decodeBody(body));
  } catch (error) {
    if (error instanceof WebhookPayloadError) throw error;
    // Getters, proxies and exotic objects can throw anything; the contract is one error type.
    throw withCause(new WebhookPayloadError('invalid webhook payload: the body could not be read'), error);
  }
}
