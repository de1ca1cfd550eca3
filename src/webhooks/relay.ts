import { WebhookPayloadError } from '../core/errors.js';
import { withCause } from './decode-body.js';
import { encoder } from './encoder.js';
import type { WebhookEvent } from './event.js';
import { parseWebhookEvent, type ReadBody } from './parse.js';
import { type EventRelayOptions, resolveEventRelayOptions } from './relay-options.js';
import { createReplay } from './relay-replay.js';
import { EventStreams } from './relay-streams.js';
import { reply } from './reply.js';

export type { EventRelayOptions } from './relay-options.js';

/**
 * A relay made by {@link createEventRelay}.
 *
 * @example
 * ```ts
 * import { createEventRelay } from 'scholarly-metrics/webhooks';
 * const relay = createEventRelay();
 * relay.clients; // → 0
 * ```
 */
export interface EventRelay {
  /**
   * A Fetch handler for the page's `GET /events`: a `text/event-stream` response that stays open,
   * one per page. 405 for a method other than GET or HEAD; 503 with `Retry-After` when `maxClients`
   * streams are open or the relay is closed. It never throws.
   */
  readonly handler: (request: Request) => Response;
  /**
   * Sends a `score_updated` event to every open stream, after checking it with
   * {@link parseWebhookEvent}, so a relayed body is as trusted as a received one.
   *
   * @returns how many streams it was queued for (0 once the relay is closed).
   * @throws {WebhookPayloadError} for an invalid event; then nothing is sent.
   */
  publish(event: WebhookEvent | string): number;
  /** Sends a body of any other type (see {@link ReadBody}), as the signature above does. */
  publish<Body>(event: Body & ReadBody<Body>): number;
  /** How many streams are open. */
  readonly clients: number;
  /** Ends every stream (what they hold is still delivered) and answers 503 to new requests. */
  close(): void;
}

const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-transform: compressing proxies would otherwise hold the stream back.
  'cache-control': 'no-cache, no-transform',
  // nginx buffers responses unless told not to.
  'x-accel-buffering': 'no',
};

/**
 * Creates a relay of webhook events to open pages, as server-sent events: a browser's `EventSource`
 * (or `queries.follow` of `scholarly-metrics/query`) gets each `score_updated` a moment after the
 * service sent it, so a dashboard refetches what changed instead of polling.
 *
 * Each event is one message whose `data` is the event as JSON and whose `id` lets a reconnecting
 * `EventSource` ask (with `Last-Event-ID`) for what it missed: the last `replayEvents` are kept for
 * that. A new stream is greeted with the latest id, so it asks even when it lost its connection before
 * its first event. A client whose id is older than that, or from before a restart, gets a `missed` event first
 * (its data a sentence, its id the latest): it should refetch what it shows, as `queries.follow`
 * does. A heartbeat comment every `heartbeatMs` keeps idle connections open through proxies. Memory is
 * bounded: at most `maxClients` streams, and a client that stops reading is dropped once
 * `maxBufferedEvents` messages wait for it. A client that goes away (its request aborted, its stream
 * cancelled) frees its place at once.
 *
 * The relay relays only: who may open the stream (a login, a cookie) is for your server to check
 * before calling `relay.handler`.
 *
 * @param options - bounds, heartbeat and replay; see {@link EventRelayOptions}.
 * @throws {ConfigurationError} for an invalid option.
 * @example
 * ```ts
 * import { createEventRelay, createWebhookHandler } from 'scholarly-metrics/webhooks';
 *
 * const relay = createEventRelay();
 * const receive = createWebhookHandler((event) => relay.publish(event));
 *
 * // Deno, Bun, Workers, Hono, Next.js…: the page opens `new EventSource('/events')`
 * const fetchHandler = (request: Request) =>
 *   new URL(request.url).pathname === '/events' ? relay.handler(request) : receive(request);
 * ```
 */
export function createEventRelay(options?: EventRelayOptions): EventRelay {
  const settings = resolveEventRelayOptions(options);
  const streams = new EventStreams(settings);
  const replay = createReplay(settings.replayEvents);
  let closed = false;

  const handler = (request: Request): Response => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        const message = 'the event stream is opened with GET';
        return refusal(405, 'method_not_allowed', message, { allow: 'GET, HEAD' });
      }
      if (closed) return refusal(503, 'relay_closed', 'the event relay is closed', retryAfter(settings));
      if (streams.size >= settings.maxClients) {
        const message = `the event relay is full (${settings.maxClients} streams)`;
        return refusal(503, 'relay_full', message, retryAfter(settings));
      }
      // HEAD answers as GET would (a health check sees a closed or full relay), without opening a stream.
      if (request.method === 'HEAD') return new Response(null, { status: 200, headers: streamHeaders });
      const lastEventId = request.headers.get('last-event-id');
      const missed = replay.after(lastEventId) ?? [eventsGone(replay.lastId())];
      // A stream that asked for nothing gets the latest id at once, so that it never comes back without one.
      const startId = lastEventId === null ? replay.lastId() : undefined;
      return new Response(streams.open(request, missed, startId), { status: 200, headers: streamHeaders });
    } catch {
      // Only an unusual request object gets here; the page still gets an answer.
      return refusal(500, 'internal_error', 'the event relay failed');
    }
  };

  const publish = <Body>(input: Body & ReadBody<Body>): number => {
    const data = eventData(parseWebhookEvent<unknown>(input));
    // The frame's text checked as a page reads it: writing it ran any nested toJSON or getter again.
    parseWebhookEvent(data);
    if (closed) return 0;
    // An id is taken only for an event that is sent: one without a frame would replay the ring's old frame.
    const id = replay.nextId();
    const frame = encoder.encode(`id: ${id}\ndata: ${data}\n\n`);
    replay.keep(frame);
    return streams.broadcast(frame);
  };

  return {
    handler,
    publish,
    close() {
      closed = true;
      streams.endAll();
      replay.clear();
    },
    get clients() {
      return streams.size;
    },
  };
}

/**
 * The event as JSON, on one line (JSON.stringify writes no line break). An object a framework parsed may
 * hold, beside its checked fields, a value JSON cannot carry: that event is invalid, as `publish` says.
 */
function eventData(event: WebhookEvent): string {
  const message =
    'invalid webhook payload: the event holds a value JSON cannot carry, such as a BigInt, a cycle or a toJSON function';
  // As `toJSON`, a function would put whatever it returns in the frame instead of the checked event.
  if (typeof (event as { toJSON?: unknown }).toJSON === 'function') throw new WebhookPayloadError(message);
  try {
    return JSON.stringify(event);
  } catch (error) {
    throw withCause(new WebhookPayloadError(message), error);
  }
}

/**
 * Told to a client back with a `Last-Event-ID` whose events the relay no longer has: it should
 * refetch what it shows. Its id is the latest event's, so that its next return asks from here.
 */
function eventsGone(lastId: string): Uint8Array {
  return encoder.encode(
    `id: ${lastId}\nevent: missed\ndata: events sent while you were away are no longer kept\n\n`,
  );
}

function retryAfter(settings: { retryAfterSeconds: number }): Record<string, string> {
  return { 'retry-after': String(settings.retryAfterSeconds) };
}

function refusal(status: number, error: string, message: string, headers?: Record<string, string>): Response {
  const answer = reply(status, { error, message }, headers);
  return new Response(answer.body, answer);
}
