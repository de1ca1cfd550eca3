import { WebhookPayloadError } from '../core/errors.js';

/**
 * The forms a webhook body may take: the raw text, the raw bytes (Node `Buffer` is a `Uint8Array`;
 * any `ArrayBufferView` such as `DataView` works), an `ArrayBuffer`, or a value a framework already
 * parsed from JSON (Express's `req.body`).
 *
 * @example
 * ```ts
 * const body: WebhookBody = await request.text();
 * ```
 */
export type WebhookBody = string | Uint8Array | ArrayBuffer | ArrayBufferView | object;

// fatal: invalid UTF-8 is an error, not U+FFFD. ignoreBOM is false, so one leading BOM is dropped.
const utf8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a body to the JSON value it holds; objects (anything else that is not text or bytes) are
 * returned as they are, for the caller to inspect.
 *
 * @throws {WebhookPayloadError} when the bytes are not UTF-8 or the text is not JSON.
 */
export function decodeBody(body: unknown): unknown {
  if (typeof body === 'string') return decodeText(body);
  const bytes = asBytes(body);
  if (bytes === undefined) return body;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw withCause(new WebhookPayloadError('invalid webhook payload: the body is not valid UTF-8'), error);
  }
  return parseJson(text);
}

/** {@link decodeBody} for text. */
function decodeText(text: string): unknown {
  return parseJson(withoutBom(text));
}

/** The text without its one leading BOM, if it has one (as TextDecoder drops it from bytes). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new WebhookPayloadError('invalid webhook payload: the body is empty');
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse's own message quotes the raw body unescaped; keep it as the cause only.
    throw withCause(new WebhookPayloadError('invalid webhook payload: the body is not valid JSON'), error);
  }
}

/** A byte view of `body`, or `undefined` when it is not binary. */
function asBytes(body: unknown): Uint8Array | undefined {
  if (ArrayBuffer.isView(body)) {
    const view = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return isShared(body.buffer) ? view.slice() : view;
  }
  // Tags rather than instanceof: buffers from another realm (iframe, vm, worker) must work too.
  const tag = Object.prototype.toString.call(body);
  if (body instanceof ArrayBuffer || tag === '[object ArrayBuffer]')
    return new Uint8Array(body as ArrayBuffer);
  if (tag === '[object SharedArrayBuffer]') return new Uint8Array(body as ArrayBufferLike).slice();
  return undefined;
}

/** TextDecoder refuses views of shared memory in browsers; such bytes are copied first. */
function isShared(buffer: ArrayBufferLike): boolean {
  return Object.prototype.toString.call(buffer) === '[object SharedArrayBuffer]';
}

/** Attaches a cause: `WebhookPayloadError`'s constructor takes no options. */
export function withCause(error: WebhookPayloadError, cause: unknown): WebhookPayloadError {
  Object.defineProperty(error, 'cause', { value: cause, configurable: true, writable: true });
  return error;
}
