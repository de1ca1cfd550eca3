import { MetricError } from '../core/errors.js';
import type { Delivery } from './delivery.js';
import type { WebhookEvent } from './event.js';
import { createReceiver, type WebhookHandlerOptions } from './receiver.js';

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
 * - 415 for a `Content-Encoding` other than gzip, deflate or identity (gzip and deflate are decoded),
 * - 500 `{"error":"internal_error",…}` with no details when `onEvent` throws; the error goes to `onError`,
 * - 503 `{"error":"cache_unavailable",…}` when `cache.apply` failed and `cacheFailure` is `'reject'`.
 *
 * It never rejects. The body is read as bytes, so the Content-Type header is not consulted (the
 * API document does not state it).
 *
 * @param onEvent - your code, called once per valid event; awaited before the answer is sent.
 * @param options - size cap, body deadline and error reporting; see {@link WebhookHandlerOptions}.
 * @throws {ConfigurationError} at creation, for a non-function `onEvent` or an invalid option.
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
    const reply = await answer({ request }, () => {
      if (typeof request?.headers?.get !== 'function') throw new MetricError(notARequest);
      return describe(request);
    });
    // A Reply is a ResponseInit (its status and headers) with the body beside them.
    return new Response(reply.body, reply);
  };
}

/** The request as the shared steps read it. */
function describe(request: Request): Delivery {
  return {
    method: request.method,
    contentLength: request.headers.get('content-length'),
    contentEncoding: request.headers.get('content-encoding'),
    traceparent: request.headers.get('traceparent'),
    // Read, or held by a reader someone else took: either way not the receiver's to read.
    consumed: request.bodyUsed || request.body?.locked === true,
    stream: () => request.body,
    // Cancelled so the runtime can drop the body instead of buffering it.
    drop: () => request.body?.cancel().catch(() => {}),
  };
}

// Frameworks call handlers with objects of their own; in plain JavaScript nothing stops one from
// being passed here, and a TypeError from deep inside would point at the wrong code.
const notARequest =
  'createWebhookHandler: the handler was called with something that is not a Fetch Request; ' +
  'in Hono pass c.req.raw, and in Node, Express, Fastify or Koa use createNodeWebhookHandler';
