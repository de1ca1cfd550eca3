import { quote } from '../core/describe-value.js';
import { MetricError, WebhookPayloadError } from '../core/errors.js';
import { checkTelemetryOption } from '../core/options/telemetry.js';
import { readCapped } from '../core/read-body.js';
import type { WebhookBody } from './decode-body.js';
import type { Delivery, Reply } from './delivery.js';
import type { WebhookEvent } from './event.js';
import { resolveWebhookHandlerOptions, type WebhookHandlerOptions } from './options.js';
import { parseWebhookEvent } from './parse.js';
import { type Seen, traced } from './telemetry.js';

export type { WebhookHandlerOptions } from './options.js';

/*
 * What the Fetch and the Node receivers share: options, the order of checks, and the answers. The
 * two adapters only describe their request (a `Delivery`) and write the `Reply`.
 *
 * The API document does not say what the service expects back, retries or timeouts included, so the
 * answers follow common webhook practice: 200 once the callback has finished, 400 for a body that is
 * not a valid event (resending it would not help), 500 when the callback failed (a retry might), and,
 * with `cacheFailure: 'reject'`, 503 when the cache could not apply the event (a retry will, once
 * its store is back).
 */

/** DecompressionStream, typed for byte streams (its writable side is declared for any BufferSource). */
type Decoder = ReadableWritablePair<Uint8Array, Uint8Array>;

/** A body read up to the cap: its bytes, or why there are none. */
type CappedBody = Uint8Array | 'too_large' | 'too_slow' | 'unreadable';

/**
 * A receiver: `answer` runs the checks, the parser and the callback and says what to reply (it never
 * rejects); `report` hands an error to `onError`. Checks the callback and options once, at creation.
 *
 * @throws {ConfigurationError} for a non-function `onEvent` or an invalid option.
 */
export function createReceiver<Context>(
  onEvent: (event: WebhookEvent, context: Context) => unknown,
  options: WebhookHandlerOptions | undefined,
): {
  answer: (context: Context, inspect: () => Delivery) => Promise<Reply>;
  report: (error: unknown) => void;
} {
  const { maxBodyBytes, bodyTimeoutMs, onError, cache, cacheFailure } = resolveWebhookHandlerOptions(
    onEvent,
    options,
  );
  const sink = onError ?? defaultOnError;

  const report = (error: unknown): void => {
    try {
      // An async onError is allowed; its rejection must not become an unhandled rejection.
      Promise.resolve(sink(error)).catch(() => {});
    } catch {
      // onError is the last resort; there is nobody left to tell.
    }
  };

  /** A failure the sender is not answered for: to `onError`, or a warning when there is none. */
  const warn = (message: string, cause: unknown): void => {
    if (onError === undefined) console.warn(`scholarly-metrics: ${message}`, cause);
    else report(new MetricError(message, { cause }));
  };

  const telemetry = checkTelemetryOption(options?.telemetry);

  async function answer(context: Context, inspect: () => Delivery, seen?: Seen): Promise<Reply> {
    try {
      const delivery = inspect();
      if (delivery.method !== 'POST') {
        const message = 'webhook events are delivered with POST';
        return reply(405, { error: 'method_not_allowed', message }, { allow: 'POST' });
      }
      let body: unknown = delivery.parsed;
      if (delivery.consumed) {
        if (body === undefined) {
          report(new MetricError(alreadyRead));
          return serverError();
        }
      } else {
        const received = await receiveBody(delivery, maxBodyBytes, bodyTimeoutMs);
        if ('refusal' in received) return received.refusal;
        body = received.body;
      }
      let event: WebhookEvent;
      try {
        event = parseWebhookEvent(body as WebhookBody);
      } catch (error) {
        // parseWebhookEvent throws nothing else, but a wrong message must not turn into a crash.
        return invalid(error instanceof WebhookPayloadError ? error.message : 'invalid webhook payload');
      }
      if (seen) seen.journalId = event.journal_id;
      if (cache !== undefined) {
        const failure = await cacheFailureOf(cache, event);
        if (failure !== undefined) {
          warn(cacheFailed[cacheFailure], failure);
          if (cacheFailure === 'reject') return cacheUnavailable();
        }
      }
      try {
        await onEvent(event, context);
      } catch (error) {
        report(error);
        return serverError();
      }
      return reply(200, { received: true });
    } catch (error) {
      // Only a bug or a very unusual request object gets here; the sender still gets an answer.
      report(error);
      return serverError();
    }
  }

  const untraced = (error: unknown) => warn(telemetryFailed, error);
  return { answer: telemetry ? traced(telemetry, answer, untraced) : answer, report };
}

/**
 * Lets a body refused unread go, waiting at most `ms` for it: a sender's stream whose cancel never
 * settles must not hold the answer.
 */
async function letGo(delivery: Delivery, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([delivery.drop(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The body a delivery's stream brings, decoded, or the refusal when it is too large, slow or unreadable. */
async function receiveBody(
  delivery: Delivery,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
): Promise<{ body: Uint8Array } | { refusal: Reply }> {
  const coding = codingOf(delivery.contentEncoding);
  if (coding === undefined) {
    await letGo(delivery, bodyTimeoutMs);
    return { refusal: unsupportedEncoding(delivery.contentEncoding) };
  }
  if (declaresTooMuch(delivery.contentLength, maxBodyBytes)) {
    await letGo(delivery, bodyTimeoutMs);
    return { refusal: tooLarge(maxBodyBytes) };
  }
  const body = await readWithin(delivery, coding, maxBodyBytes, bodyTimeoutMs);
  if (body === 'too_large') return { refusal: tooLarge(maxBodyBytes) };
  if (body === 'too_slow') {
    const message = `the body did not arrive within ${bodyTimeoutMs} ms`;
    return { refusal: reply(408, { error: 'request_timeout', message }, { connection: 'close' }) };
  }
  if (body === 'unreadable') {
    const what = coding === null ? 'read' : `decoded from ${coding}`;
    return { refusal: invalid(`invalid webhook payload: the body could not be ${what}`) };
  }
  return { body };
}

function tooLarge(maxBodyBytes: number): Reply {
  const message = `the body is larger than ${maxBodyBytes} bytes`;
  // The unread rest of the body must not be taken for the next request.
  return reply(413, { error: 'payload_too_large', message }, { connection: 'close' });
}

function invalid(message: string): Reply {
  return reply(400, { error: 'invalid_payload', message });
}

/**
 * The read, given `bodyTimeoutMs` in all: a slow sender must not hold the receiver. A timer of its
 * own rather than core's Deadline, which also follows a caller's signal and aborts a fetch: a
 * receiver has neither, and this entry's browser bundle would carry them.
 */
async function readWithin(
  delivery: Delivery,
  coding: CompressionFormat | null,
  maxBodyBytes: number,
  bodyTimeoutMs: number,
): Promise<CappedBody> {
  let timedOut = false;
  let sentTooMuch = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new Error('the body took too long'));
    }, bodyTimeoutMs);
  });
  try {
    const stream = delivery.stream();
    if (stream === null) return new Uint8Array(0);
    const within = { race: <T>(read: Promise<T>) => Promise.race([read, late]) };
    // The cap counts decoded bytes, so a small gzip that expands a thousandfold stops at the cap, and
    // the bytes sent too, so a gzip that decodes to next to nothing cannot be sent without end.
    let sent = 0;
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        sentTooMuch = sent > maxBodyBytes;
        if (sentTooMuch) controller.error();
        else controller.enqueue(chunk);
      },
    });
    const decoded =
      coding === null
        ? stream
        : stream.pipeThrough(counted).pipeThrough(new DecompressionStream(coding) as Decoder);
    return (await readCapped(decoded, maxBodyBytes, within)) ?? 'too_large';
  } catch {
    // Sent past the cap; the sender went away or the stream broke (nothing valid arrived); or the
    // time ran out.
    return sentTooMuch ? 'too_large' : timedOut ? 'too_slow' : 'unreadable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The decoder a Content-Encoding needs: `null` for a body sent as is, `undefined` for a coding the
 * receiver cannot undo. Express's body parsers undo gzip and deflate too, so a sender (or a proxy)
 * that compresses is understood either way.
 */
function codingOf(contentEncoding: string | null | undefined): CompressionFormat | null | undefined {
  const coding = contentEncoding?.trim().toLowerCase() || 'identity';
  if (coding === 'identity') return null;
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  return coding === 'deflate' ? 'deflate' : undefined;
}

/** 415 (RFC 7694): the sender learns which codings are understood, and may send the body as is. */
function unsupportedEncoding(contentEncoding: string | null | undefined): Reply {
  const message = `the Content-Encoding ${quote(String(contentEncoding))} is not supported; send gzip, deflate or identity`;
  return reply(
    415,
    { error: 'unsupported_encoding', message },
    // The body was left unread: it must not be taken for the next request.
    { 'accept-encoding': 'gzip, deflate', connection: 'close' },
  );
}

/** What `cache.apply` threw or rejected with, or `undefined` when it applied the event. */
async function cacheFailureOf(cache: { apply(event: WebhookEvent): unknown }, event: WebhookEvent) {
  try {
    await cache.apply(event);
    return undefined;
  } catch (error) {
    // A bare `throw undefined` is a failure too.
    return error ?? new Error('cache.apply(event) threw undefined');
  }
}

const cacheFailed = {
  accept: 'cache.apply(event) failed; the delivery is acknowledged all the same',
  reject: 'cache.apply(event) failed; the sender is answered 503 and delivers the event again',
} as const;

/** 503: the cache could not drop what the event contradicts, so the sender should deliver it again. */
function cacheUnavailable(): Reply {
  const message = 'the receiver could not apply the event to its cache; deliver it again later';
  return reply(503, { error: 'cache_unavailable', message });
}

const telemetryFailed = 'telemetry failed; the delivery is answered without it';

const alreadyRead =
  'webhook receiver: the request body was already read by other code, and nothing was kept of it; ' +
  'give the receiver the request before anything reads its body (in Express a parser that sets ' +
  'req.body, such as express.json(), may run first; in Fastify call it from an onRequest hook; in ' +
  'Koa after koa-bodyparser, set ctx.req.body to ctx.request.rawBody)';

function defaultOnError(error: unknown): void {
  // The callback's errors, and the receiver's own (a body read elsewhere, a request it cannot read).
  console.error('scholarly-metrics: a webhook delivery failed; the sender got a 500.', error);
}

/** 500 without details: what went wrong is for the receiver's logs (onError), not for the sender. */
export function serverError(): Reply {
  return reply(500, { error: 'internal_error', message: 'the webhook receiver failed' });
}

/** A JSON answer: the receivers' and the relay's refusals alike. */
export function reply(status: number, body: object, headers?: Record<string, string>): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** A Content-Length that is surely past the cap (a malformed one is left to the reading). */
function declaresTooMuch(contentLength: string | null | undefined, maxBodyBytes: number): boolean {
  return (
    typeof contentLength === 'string' && /^\d+$/.test(contentLength) && Number(contentLength) > maxBodyBytes
  );
}
