import { MetricError, WebhookPayloadError } from '../core/errors.js';
import { checkTelemetryOption } from '../core/options/telemetry.js';
import type { WebhookBody } from './decode-body.js';
import type { Delivery, Reply } from './delivery.js';
import type { WebhookEvent } from './event.js';
import { resolveWebhookHandlerOptions, type WebhookHandlerOptions } from './options.js';
import { parseWebhookEvent } from './parse.js';
import { receiveBody, wrongMethod } from './receive-body.js';
import { invalid, reply, serverError } from './reply.js';
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
  const report = reporterTo(onError ?? defaultOnError);
  /** A failure the sender is not answered for: to `onError`, or a warning when there is none. */
  const warn = (message: string, cause: unknown): void => {
    if (onError === undefined) console.warn(`scholarly-metrics: ${message}`, cause);
    else report(new MetricError(message, { cause }));
  };
  const telemetry = checkTelemetryOption(options?.telemetry);

  async function answer(context: Context, inspect: () => Delivery, seen?: Seen): Promise<Reply> {
    try {
      const delivery = inspect();
      if (delivery.method !== 'POST') return await wrongMethod(delivery, bodyTimeoutMs);
      let body: unknown = delivery.parsed;
      if (!delivery.consumed) {
        const received = await receiveBody(delivery, maxBodyBytes, bodyTimeoutMs);
        if ('refusal' in received) return received.refusal;
        body = received.body;
      } else if (body === undefined) {
        report(new MetricError(alreadyRead));
        return serverError();
      }
      let event: WebhookEvent;
      try {
        event = parseWebhookEvent(body as WebhookBody);
      } catch (error) {
        // parseWebhookEvent throws nothing else, but a wrong message must not turn into a crash.
        return invalid(error instanceof WebhookPayloadError ? error.message : 'invalid webhook payload');
      }
      if (seen) seen.journalId = event.journal_id;
      const failure = cache && (await cacheFailureOf(cache, event));
      if (failure !== undefined) {
        warn(cacheFailed[cacheFailure], failure);
        if (cacheFailure === 'reject') return cacheUnavailable();
      }
      await onEvent(event, context);
      return reply(200, { received: true });
    } catch (error) {
      // The callback failed (a retry might help), or, rarely, the receiver or the request object.
      report(error);
      return serverError();
    }
  }

  const untraced = (error: unknown) => warn(telemetryFailed, error);
  return { answer: telemetry ? traced(telemetry, answer, untraced) : answer, report };
}

/** Hands an error to `sink`, which may throw or reject: neither may escape. */
function reporterTo(sink: (error: unknown) => unknown): (error: unknown) => void {
  return (error) => {
    try {
      // An async onError is allowed; its rejection must not become an unhandled rejection.
      Promise.resolve(sink(error)).catch(() => {});
    } catch {
      // onError is the last resort; there is nobody left to tell.
    }
  };
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
