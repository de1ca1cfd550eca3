import { InvalidParameterError, WebhookPayloadError } from '../core/errors.js';
import type { WebhookBody } from './decode-body.js';
import { parseWebhookEvent } from './parse.js';
import type { WebhookEvent } from './schema.js';

/**
 * What the Fetch and the Node receivers share: options, the order of checks, and the answers.
 *
 * The API document does not say what the service expects back, retries or timeouts included, so the
 * answers follow common webhook practice: 200 once the callback has finished, 400 for a body that is
 * not a valid event (resending it would not help), 500 when the callback failed (a retry might).
 */

/**
 * Options of {@link createWebhookHandler} and {@link createNodeWebhookHandler}.
 *
 * @example
 * ```ts
 * const options: WebhookHandlerOptions = {
 *   maxBodyBytes: 16_384,
 *   onError: (error) => logger.error({ error }, 'webhook callback failed'),
 * };
 * ```
 */
export interface WebhookHandlerOptions {
  /**
   * The largest body accepted, in bytes. A larger one is answered 413 without reading it all (a
   * `score_updated` event is about 150 bytes).
   * @default 65_536
   */
  maxBodyBytes?: number;
  /**
   * Called with whatever your callback threw or rejected with; the sender then gets a bare 500. Also
   * called for failures of the receiver itself (e.g. a body another middleware consumed). Errors it
   * throws are ignored.
   * @default logs the error with `console.error`
   */
  onError?: (error: unknown) => void;
}

/**
 * The answer to give, before it is written as a Fetch `Response` or onto a Node response.
 *
 * @example
 * ```ts
 * const reply: Reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"received":true}' };
 * ```
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Settled options, checked once when the handler is created rather than on every call.
 *
 * @example
 * ```ts
 * const settings: ReceiverSettings = settle(onEvent, { maxBodyBytes: 1024 });
 * ```
 */
export interface ReceiverSettings {
  maxBodyBytes: number;
  report: (error: unknown) => void;
}

const defaultMaxBodyBytes = 65_536;

/**
 * Checks the callback and options; throws {@link InvalidParameterError} for surely wrong ones.
 *
 * @example
 * ```ts
 * settle(() => {}, { maxBodyBytes: 0 }); // throws: maxBodyBytes must be a positive integer, got 0
 * ```
 */
export function settle(onEvent: unknown, options: WebhookHandlerOptions | undefined): ReceiverSettings {
  if (typeof onEvent !== 'function') {
    throw new InvalidParameterError('onEvent', `onEvent must be a function, got ${typeof onEvent}`);
  }
  const maxBodyBytes = options?.maxBodyBytes ?? defaultMaxBodyBytes;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new InvalidParameterError(
      'maxBodyBytes',
      `maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`,
    );
  }
  const onError = options?.onError;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new InvalidParameterError('onError', `onError must be a function, got ${typeof onError}`);
  }
  const sink = onError ?? defaultOnError;
  return {
    maxBodyBytes,
    report: (error) => {
      try {
        const returned: unknown = sink(error);
        // An async onError is allowed; its rejection must not become an unhandled rejection.
        if (isThenable(returned)) returned.then(undefined, () => {});
      } catch {
        // onError is the last resort; there is nobody left to tell.
      }
    },
  };
}

function defaultOnError(error: unknown): void {
  console.error('scholarly-metrics: the webhook callback failed; the sender got a 500.', error);
}

/**
 * Parses the body, runs the callback and says what to answer. Never throws or rejects.
 *
 * @example
 * ```ts
 * const reply = await receive(bytes, onEvent, { request }, settings); // reply.status: 200, 400 or 500
 * ```
 */
export async function receive<Context>(
  body: unknown,
  onEvent: (event: WebhookEvent, context: Context) => unknown,
  context: Context,
  settings: ReceiverSettings,
): Promise<Reply> {
  let event: WebhookEvent;
  try {
    // Anything is safe to pass: the parser checks the type of what it gets at run time.
    event = parseWebhookEvent(body as WebhookBody);
  } catch (error) {
    // parseWebhookEvent throws nothing else, but a wrong message must not turn into a crash.
    const message = error instanceof WebhookPayloadError ? error.message : 'invalid webhook payload';
    return invalidPayload(message);
  }
  try {
    await onEvent(event, context);
  } catch (error) {
    settings.report(error);
    return serverError();
  }
  return jsonReply(200, { received: true });
}

/**
 * 400: the body is not a valid event; the message is the parser's (already escaped and truncated).
 *
 * @example
 * ```ts
 * invalidPayload(error.message).status; // 400
 * ```
 */
export function invalidPayload(message: string): Reply {
  return jsonReply(400, { error: 'invalid_payload', message });
}

/**
 * 405 with `Allow: POST`: the service delivers events with POST only.
 *
 * @example
 * ```ts
 * methodNotAllowed().headers.allow; // 'POST'
 * ```
 */
export function methodNotAllowed(): Reply {
  const reply = jsonReply(405, {
    error: 'method_not_allowed',
    message: 'webhook events are delivered with POST',
  });
  reply.headers.allow = 'POST';
  return reply;
}

/**
 * 413: past the cap. `Connection: close` so the unread rest of the body is not parsed as a request.
 *
 * @example
 * ```ts
 * payloadTooLarge(65_536).body; // '{"error":"payload_too_large","message":"the body is larger than 65536 bytes"}'
 * ```
 */
export function payloadTooLarge(maxBodyBytes: number): Reply {
  const reply = jsonReply(413, {
    error: 'payload_too_large',
    message: `the body is larger than ${maxBodyBytes} bytes`,
  });
  reply.headers.connection = 'close';
  return reply;
}

/**
 * 500 without details: what went wrong is for the receiver's logs (onError), not for the sender.
 *
 * @example
 * ```ts
 * serverError().body; // '{"error":"internal_error","message":"the webhook receiver failed"}'
 * ```
 */
export function serverError(): Reply {
  return jsonReply(500, { error: 'internal_error', message: 'the webhook receiver failed' });
}

function jsonReply(status: number, body: object): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}

/**
 * A Content-Length that is surely past the cap (a malformed one is left to the stream check).
 *
 * @example
 * ```ts
 * declaresTooMuch('70000', 65_536); // true
 * ```
 */
export function declaresTooMuch(contentLength: string | null | undefined, maxBodyBytes: number): boolean {
  return (
    typeof contentLength === 'string' && /^\d+$/.test(contentLength) && Number(contentLength) > maxBodyBytes
  );
}

/**
 * Joins received chunks into one byte array.
 *
 * @example
 * ```ts
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)], 3); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
