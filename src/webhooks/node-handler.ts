import { MetricError } from '../core/errors.js';
import {
  concatBytes,
  declaresTooMuch,
  invalidPayload,
  methodNotAllowed,
  payloadTooLarge,
  type Reply,
  receive,
  serverError,
  settle,
  type WebhookHandlerOptions,
} from './receiver.js';
import type { WebhookEvent } from './schema.js';

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
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
  pause?(): unknown;
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
  end(chunk: string): unknown;
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
 * finished, 400 for an invalid body, 405 for a method other than POST, 413 past the cap (the
 * connection is then closed), 500 without details when `onEvent` throws (reported to `onError`).
 * It answers every request itself: `next` is accepted so the function fits Express, and never called.
 *
 * @param onEvent - your code, called once per valid event; awaited before the answer is sent.
 * @param options - size cap and error reporting; see {@link WebhookHandlerOptions}.
 * @throws {InvalidParameterError} at creation, for a non-function `onEvent` or an invalid option.
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
  const settings = settle(onEvent, options);
  return (req, res) => {
    void run(req, res);
  };

  /** Never rejects: a Node request listener has nobody to hand a rejection to. */
  async function run(req: Req, res: NodeWebhookResponse): Promise<void> {
    try {
      write(res, await handle(req));
    } catch (error) {
      // A bug, an unusual request object, or a response that cannot be written (socket gone).
      settings.report(error);
      try {
        write(res, serverError());
      } catch {
        // The response object is broken; nothing more can be done.
      }
    }
  }

  async function handle(req: Req): Promise<Reply> {
    if (req.method !== 'POST') return methodNotAllowed();
    // An ended stream means a body parser ran first. A parser that skipped the body (body-parser 1.x
    // with another Content-Type) sets `req.body = {}` but leaves the stream unread: read it then.
    const ended = req.readableEnded;
    const preParsed = ended === undefined ? req.body !== undefined : ended;
    if (preParsed) {
      if (req.body === undefined) {
        settings.report(
          new MetricError(
            'webhook receiver: the request body was already read, and req.body is not set; mount the ' +
              'handler before other body readers, or after express.json() / express.raw()',
          ),
        );
        return serverError();
      }
      return receive(req.body, onEvent, { req }, settings);
    }
    if (declaresTooMuch(firstHeader(req.headers['content-length']), settings.maxBodyBytes)) {
      req.pause?.();
      return payloadTooLarge(settings.maxBodyBytes);
    }
    const body = await readCapped(req, settings.maxBodyBytes);
    if (body === 'too_large') return payloadTooLarge(settings.maxBodyBytes);
    if (body === 'unreadable') return invalidPayload('invalid webhook payload: the body could not be read');
    return receive(body, onEvent, { req }, settings);
  }
}

function write(res: NodeWebhookResponse, reply: Reply): void {
  // Someone else already answered (or the socket is gone): there is nothing left to say.
  if (res.headersSent === true || res.writableEnded === true) return;
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.end(reply.body);
}

function firstHeader(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

const encoder = new TextEncoder();

/**
 * Reads the request stream, stopping (and pausing it) once past the cap, so an oversized or endless
 * body costs at most `maxBodyBytes` of memory.
 */
function readCapped(
  req: NodeWebhookRequest,
  maxBodyBytes: number,
): Promise<Uint8Array | 'too_large' | 'unreadable'> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;

    const finish = (result: Uint8Array | 'too_large' | 'unreadable') => {
      if (settled) return;
      settled = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('close', onClose);
      // The 'error' listener stays: a stream error with no listener would crash the process.
      resolve(result);
    };
    const onData = (chunk: unknown) => {
      const bytes = toBytes(chunk);
      if (bytes === undefined) return finish('unreadable');
      total += bytes.byteLength;
      if (total > maxBodyBytes) {
        req.pause?.();
        return finish('too_large');
      }
      chunks.push(bytes);
    };
    const onEnd = () => finish(concatBytes(chunks, total));
    // 'close' before 'end' means the sender went away mid-body.
    const onClose = () => finish('unreadable');
    const onError = () => finish('unreadable');

    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onError);
  });
}

/** Chunks are Buffers, or strings after `req.setEncoding()`. */
function toBytes(chunk: unknown): Uint8Array | undefined {
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}
