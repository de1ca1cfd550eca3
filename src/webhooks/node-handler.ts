import { MetricError } from '../core/errors.js';
import type { Reply } from './delivery.js';
import { encoder } from './encoder.js';
import type { WebhookEvent } from './event.js';
import { createReceiver, type WebhookHandlerOptions } from './receiver.js';
import { serverError } from './reply.js';

/*
 * Node's request and response are described structurally, by the few members used here, so that
 * this entry point needs neither `node:http` nor `@types/node` (it is also built for browsers and
 * edge runtimes). `IncomingMessage`/`ServerResponse`, Express's `Request`/`Response`, and other
 * frameworks' wrappers of them all fit.
 */

/**
 * The parts of a Node `IncomingMessage` (or Express `Request`) the handler uses.
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * const req: NodeWebhookRequest = {} as IncomingMessage; // compiles: IncomingMessage fits
 * ```
 */
export interface NodeWebhookRequest {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Set by Express body parsers (`express.json()`, `express.raw()`, `express.text()`). */
  readonly body?: unknown;
  /** `true` once the body stream has been read to its end (by a body parser, for instance). */
  readonly readableEnded?: boolean;
  /** 2 on Node's HTTP/2 compatibility API, where an answer cannot close the connection. */
  readonly httpVersionMajor?: number;
  /** The request's own stream, on Node's HTTP/2 compatibility API: a refusal ends it. */
  readonly stream?: { destroy(): unknown };
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
  pause?(): unknown;
  resume?(): unknown;
}

/**
 * The parts of a Node `ServerResponse` (or Express `Response`) the handler uses.
 *
 * @example
 * ```ts
 * import type { ServerResponse } from 'node:http';
 * const res: NodeWebhookResponse = {} as ServerResponse; // compiles: ServerResponse fits
 * ```
 */
export interface NodeWebhookResponse {
  statusCode: number;
  readonly headersSent?: boolean;
  readonly writableEnded?: boolean;
  setHeader(name: string, value: string): unknown;
  end(chunk: string, done?: () => void): unknown;
}

/**
 * What a Node receiver passes to your callback besides the event.
 *
 * @example
 * ```ts
 * createNodeWebhookHandler((event, { req }) => console.log(req.headers['user-agent'], event.journal_id));
 * ```
 */
export interface NodeWebhookContext<Req extends NodeWebhookRequest = NodeWebhookRequest> {
  /** The incoming request; its body has been read. */
  req: Req;
}

/**
 * Creates a webhook receiver for Node's `http` module, usable as Express (or Connect) middleware too.
 *
 * It reads the raw body from the request stream, stopping at `maxBodyBytes`. When an Express body
 * parser ran first (`express.json()`, `express.raw()`, `express.text()`), the stream is already
 * consumed and `req.body` (object, Buffer or string) is used instead.
 *
 * Answers as {@link createWebhookHandler} does: 200 `{"received":true}` after `onEvent` has
 * finished, 400 for an invalid body, 405 for a method other than POST, 408 for a body slower than
 * `bodyTimeoutMs` and 413 past the cap (over HTTP/1 the connection is then closed in both cases),
 * 415 for a `Content-Encoding` other than gzip, deflate or identity (gzip and deflate are decoded),
 * 500 without details when `onEvent` throws (reported to `onError`), 503 when `cache.apply` failed
 * and `cacheFailure` is `'reject'`.
 * It answers every request itself: `next` is accepted so the function fits Express, and never called.
 *
 * @param onEvent - your code, called once per valid event; awaited before the answer is sent.
 * @param options - size cap, body deadline and error reporting; see {@link WebhookHandlerOptions}.
 * @throws {ConfigurationError} at creation, for a non-function `onEvent` or an invalid option.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import express from 'express';
 * import { createNodeWebhookHandler } from 'scholarly-metrics/webhooks';
 *
 * const onScore = createNodeWebhookHandler(async (event) => {
 *   await db.scores.upsert(event.journal_id, event.new_score, event.timestamp);
 * });
 *
 * createServer(onScore).listen(3000); // plain Node
 * express().post('/hooks/metric-7f3a9c', onScore).listen(3000); // Express, secret path
 * ```
 */
export function createNodeWebhookHandler<Req extends NodeWebhookRequest = NodeWebhookRequest>(
  onEvent: (event: WebhookEvent, context: NodeWebhookContext<Req>) => unknown,
  options?: WebhookHandlerOptions,
): (req: Req, res: NodeWebhookResponse, next?: (error?: unknown) => void) => void {
  const { answer, report } = createReceiver(onEvent, options);
  return (req, res) => {
    answer({ req }, () => {
      // An ended stream means a body parser ran first. A parser that skipped the body (body-parser 1.x
      // with another Content-Type) sets `req.body = {}` but leaves the stream unread: read it then.
      const ended = req.readableEnded;
      const length = req.headers['content-length'];
      const encoding = req.headers['content-encoding'];
      return {
        method: req.method,
        contentLength: typeof length === 'string' ? length : length?.[0],
        contentEncoding: typeof encoding === 'string' ? encoding : encoding?.join(),
        // Sent twice, Node joins the two with a comma: no longer one valid header, it is ignored.
        traceparent: req.headers.traceparent,
        consumed: ended === undefined ? req.body !== undefined : ended,
        parsed: req.body,
        stream: () => bodyStream(req),
        drop: () => req.pause?.(),
      };
    })
      .then((reply) => {
        // HTTP/2 forbids `connection` (Node drops it with a warning). There a refusal that leaves the
        // body unread ends the request's stream once it is out (RST_STREAM NO_ERROR, RFC 9113 §8.1), so
        // the sender stops and what it sent is let go; the connection, shared by its other requests, stays.
        let done: (() => void) | undefined;
        if ((req.httpVersionMajor ?? 1) > 1 && reply.headers.connection !== undefined) {
          delete reply.headers.connection;
          done = () => req.stream?.destroy();
        }
        if (!write(res, reply, done)) report(new MetricError(answeredElsewhere(reply.status)));
      })
      .catch((error: unknown) => {
        // The response cannot be written (socket gone, or an unusual response object).
        report(error);
        try {
          write(res, serverError());
        } catch {
          // The response object is broken; nothing more can be done.
        }
      });
  };
}

/** Writes the reply; `false` when other code had already answered, so the sender never saw it. */
function write(res: NodeWebhookResponse, reply: Reply, done?: () => void): boolean {
  if (res.headersSent === true || res.writableEnded === true) return false;
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (done) res.end(reply.body, done);
  else res.end(reply.body);
  return true;
}

/** Koa, for one, answers 404 itself unless told not to, while the receiver is still reading. */
const answeredElsewhere = (status: number) =>
  `webhook receiver: other code answered the request first, so the sender never got this ${status}; ` +
  'let the receiver answer alone (in Koa set ctx.respond = false, in Fastify call reply.hijack())';

/**
 * The request's body as a byte stream, for core's capped, deadlined reader. Cancelling it (past the
 * cap or the deadline) pauses the request, so an oversized, endless or trickling body costs at most
 * `maxBodyBytes` of memory and `bodyTimeoutMs`; over HTTP/1 the 413 or 408 then goes out with
 * `connection: close`, and Node closes the socket once it is written.
 */
function bodyStream(req: NodeWebhookRequest): ReadableStream<Uint8Array> {
  let detach = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (reason: unknown) => {
        detach();
        controller.error(reason);
      };
      const onData = (chunk: unknown) => {
        // Chunks are Buffers, or strings after `req.setEncoding('utf8')`; anything else is not a body.
        if (typeof chunk === 'string') controller.enqueue(encoder.encode(chunk));
        else if (ArrayBuffer.isView(chunk)) {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        } else fail(new TypeError('the request stream gave something other than bytes'));
      };
      const onEnd = () => {
        detach();
        controller.close();
      };
      // 'close' before 'end' means the sender went away mid-body.
      const onClose = () => fail(new Error('the request closed before its body ended'));
      detach = () => {
        req.removeListener('data', onData);
        req.removeListener('end', onEnd);
        req.removeListener('close', onClose);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('close', onClose);
      // This listener stays: a stream error with no listener would crash the process.
      req.on('error', fail);
      // A request paused before it was handed over (`req.pause()`) gives no data until resumed.
      req.resume?.();
    },
    cancel() {
      req.pause?.();
      detach();
    },
  });
}
