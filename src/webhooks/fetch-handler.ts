import type { WebhookEvent } from './event.js';
import { type CappedBody, concatBytes, createReceiver, type WebhookHandlerOptions } from './receiver.js';

/**
 * What a Fetch-style receiver passes to your callback besides the event.
 *
 * @example
 * ```ts
 * createWebhookHandler((event, { request }) => console.log(request.url, event.journal_id));
 * ```
 */
export interface FetchWebhookContext {
  /** The incoming request; its body has been read. */
  request: Request;
}

/**
 * Creates a webhook receiver for Fetch-style runtimes: Deno, Bun, Cloudflare Workers and other edge
 * runtimes, Next.js route handlers, Hono, or Node through any `Request`/`Response` adapter.
 *
 * The handler answers
 * - 200 `{"received":true}` after `onEvent` (sync or async) has finished,
 * - 400 `{"error":"invalid_payload","message":…}` for a body that is not a valid event,
 * - 405 (with `Allow: POST`) for any other method,
 * - 408 for a body that took longer than `bodyTimeoutMs` to arrive (the body stream is then cancelled),
 * - 413 for a body past `maxBodyBytes` (reading stops there),
 * - 500 `{"error":"internal_error",…}` with no details when `onEvent` throws; the error goes to `onError`.
 *
 * It never rejects. The body is read as bytes, so the Content-Type header is not consulted (the
 * API document does not state it).
 *
 * @param onEvent - your code, called once per valid event; awaited before the answer is sent.
 * @param options - size cap, body deadline and error reporting; see {@link WebhookHandlerOptions}.
 * @throws {InvalidParameterError} at creation, for a non-function `onEvent` or an invalid option.
 * @example
 * ```ts
 * import { createWebhookHandler } from 'scholarly-metrics/webhooks';
 *
 * const handleWebhook = createWebhookHandler(async (event) => {
 *   await db.scores.upsert(event.journal_id, event.new_score, event.timestamp);
 * });
 *
 * // Deno / Bun / Workers
 * export default { fetch: handleWebhook };
 * // Next.js app router: app/api/metric-webhook/route.ts
 * export const POST = handleWebhook;
 * ```
 */
export function createWebhookHandler(
  onEvent: (event: WebhookEvent, context: FetchWebhookContext) => unknown,
  options?: WebhookHandlerOptions,
): (request: Request) => Promise<Response> {
  const { answer } = createReceiver(onEvent, options);
  return async (request) => {
    const reply = await answer({ request }, () => ({
      method: request.method,
      contentLength: request.headers.get('content-length'),
      consumed: request.bodyUsed,
      read: (maxBodyBytes, deadline) => readCapped(request, maxBodyBytes, deadline),
      // Cancelled so the runtime can drop the body instead of buffering it.
      drop: () => request.body?.cancel().catch(() => {}),
    }));
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
}

/**
 * Reads the body chunk by chunk and stops at the cap, so an oversized or endless body costs at most
 * `maxBodyBytes` of memory; at the deadline the stream is cancelled, which also ends a pending read.
 */
async function readCapped(
  request: Request,
  maxBodyBytes: number,
  deadline: AbortSignal,
): Promise<CappedBody> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  deadline.addEventListener('abort', cancel);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (deadline.aborted) return 'too_slow';
      if (done) return concatBytes(chunks, total);
      total += value.byteLength;
      if (total > maxBodyBytes) {
        await reader.cancel().catch(() => {});
        return 'too_large';
      }
      chunks.push(value);
    }
  } catch {
    // The sender went away or the stream broke: nothing valid arrived.
    return deadline.aborted ? 'too_slow' : 'unreadable';
  } finally {
    deadline.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}
