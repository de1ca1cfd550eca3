import { ConfigurationError } from '../core/errors.js';
import {
  checkFunction,
  checkInteger,
  checkNames,
  checkObject,
  type OptionNames,
} from '../core/options/checks.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { withoutBom } from '../webhooks/decode-body.js';
import { checkEvent } from '../webhooks/event-checks.js';

/**
 * The parts of a browser `EventSource` that {@link follow} uses, so that a polyfill or a test double fits.
 *
 * @example
 * ```ts
 * const source: EventSourceLike = new EventSource('/events');
 * ```
 */
export interface EventSourceLike {
  /** 0 connecting, 1 open, 2 closed (for good: the browser will not reconnect by itself). */
  readonly readyState: number;
  addEventListener(
    type: 'message' | 'missed' | 'open' | 'error',
    listener: (event: { data?: unknown }) => void,
  ): void;
  close(): void;
}

/**
 * Options of {@link follow}.
 *
 * @example
 * ```ts
 * const options: FollowOptions = { eventSource: (url) => new EventSource(url, { withCredentials: true }) };
 * ```
 */
export interface FollowOptions {
  /**
   * Opens the stream: for credentials on another origin, a polyfill, or a test.
   * @default `(url) => new EventSource(url)`
   */
  eventSource?: ((url: string) => EventSourceLike) | undefined;
  /**
   * The first wait before reopening a stream the browser gave up on (a 503 from a full relay, a
   * network change); it doubles on each failure up to 30 s, and starts over once a stream opens.
   * Each wait is drawn between half and all of it, so that pages refused together come back apart.
   * @default 1_000
   */
  reconnectMs?: number | undefined;
  /**
   * Called when events may have been lost: the relay no longer had what the browser asked for (its
   * `missed` event), or the stream was opened anew after the browser gave up on it. Refetch what
   * the page shows.
   */
  missed?: (() => unknown) | undefined;
}

const longestWaitMs = 30_000;

/**
 * Follows an event relay (`createEventRelay` of `scholarly-metrics/webhooks`) from a page: each
 * `score_updated` it sends is checked with the webhook parser and handed to `invalidate`. A message
 * that is not a valid event is ignored. The browser's `EventSource` reconnects by itself (asking for
 * what it missed with `Last-Event-ID`); when it gives up, the stream is reopened after a growing wait.
 * Where events may have been lost on the way (the relay's `missed` event, or a stream opened anew),
 * `options.missed` is called. Nothing here throws or rejects once started: a failing `invalidate` or
 * `missed` is ignored.
 *
 * `queries.follow(queryClient, url)` calls it with `queries.invalidate`, and invalidates every query
 * under `queries.key` when events were missed.
 *
 * @param queryClient - a TanStack `QueryClient`, handed to `invalidate` as it is.
 * @param url - the relay's address, relative to the page or absolute.
 * @param invalidate - what to do with each event.
 * @param missedByDefault - called in place of `options.missed` when that is not given.
 * @returns `stop()`, which closes the stream for good.
 * @throws {ConfigurationError} when the runtime has no `EventSource` and none is given, for an
 *   unknown option, or for an address that is not a string or a URL, is empty, or is no http or https
 *   URL.
 * @example
 * ```ts
 * const stop = follow(queryClient, '/events', (qc, event) =>
 *   qc.invalidateQueries({ queryKey: ['journal', event.journal_id] }),
 * );
 * stop();
 * ```
 */
export function follow<QueryClient>(
  queryClient: QueryClient,
  url: string | URL,
  invalidate: (queryClient: QueryClient, event: ScoreUpdatedEvent) => Promise<void>,
  options?: FollowOptions,
  missedByDefault?: () => unknown,
): () => void {
  const [address, connect, firstWaitMs, missed] = followSettings(url, options, missedByDefault);
  let source: EventSourceLike | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let waitMs = firstWaitMs;
  let stopped = false;

  // A message that is not an event throws here, and is dropped unworded as a failing `invalidate` is:
  // a relay of another version, or something else on the same stream.
  const onMessage = (message: { data?: unknown }) =>
    ignoringFailure(() => invalidate(queryClient, relayedEvent(message.data)));
  const onMissed = () => ignoringFailure(() => missed?.());
  const schedule = () => {
    // Between half the wait and all of it: pages a full relay refused together come back apart.
    retry = setTimeout(reopen, (waitMs * (1 + Math.random())) / 2);
    waitMs = Math.min(waitMs * 2, longestWaitMs);
  };
  const open = (anew: boolean) => {
    const opened = connect(address);
    source = opened;
    opened.addEventListener('message', onMessage);
    opened.addEventListener('missed', onMissed);
    opened.addEventListener('open', () => {
      waitMs = firstWaitMs;
      // A stream opened anew asks for nothing it missed (no Last-Event-ID): events may be lost.
      if (anew && opened === source && !stopped) {
        anew = false;
        onMissed();
      }
    });
    opened.addEventListener('error', () => {
      // Connecting again is the browser's job, unless it closed the stream for good (readyState 2).
      if (stopped || opened !== source || opened.readyState !== 2 || retry !== undefined) return;
      schedule();
    });
  };
  /** Later attempts run from a timer: a throwing `eventSource` must not escape as an uncaught error. */
  const reopen = () => {
    retry = undefined;
    if (stopped) return;
    try {
      open(true);
    } catch {
      schedule();
    }
  };
  open(false);

  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}

/** One `true` per option of {@link follow}: the compiler holds the names to {@link FollowOptions}. */
const followOptionNames: OptionNames<FollowOptions> = { eventSource: true, reconnectMs: true, missed: true };

/**
 * What {@link follow} was given, checked in the order of its parameters, the defaults applied. A
 * tuple: its names cost the page no bytes, as an object's keys would.
 */
function followSettings(
  url: unknown,
  options: FollowOptions | undefined,
  missedByDefault: (() => unknown) | undefined,
): [
  address: string,
  connect: (url: string) => EventSourceLike,
  firstWaitMs: number,
  missed: (() => unknown) | undefined,
] {
  const address = relayAddress(url);
  const given = checkObject<FollowOptions>('options', options) ?? {};
  checkNames('follow()', given, Object.keys(followOptionNames));
  const { eventSource, reconnectMs } = given;
  // A `missed` given as `undefined` keeps the default, as one left out does.
  const missed = checkFunction<() => unknown>('missed', given.missed) ?? missedByDefault;
  const EventSourceClass = (globalThis as { EventSource?: new (url: string) => EventSourceLike }).EventSource;
  const connect =
    checkFunction<(url: string) => EventSourceLike>('eventSource', eventSource) ??
    (EventSourceClass && ((url: string) => new EventSourceClass(url)));
  if (!connect) throw new ConfigurationError('eventSource', 'no EventSource: pass one as `eventSource`');
  const firstWaitMs = checkInteger('reconnectMs', reconnectMs, 1, longestWaitMs) ?? 1_000;
  return [address, connect, firstWaitMs, missed];
}

/**
 * The relay's address, refused at once when no `EventSource` could open it: following it would only
 * retry, unseen, for ever. A relative address passes (the page's own resolves it). The message does
 * not quote the address, which may carry a token.
 */
function relayAddress(url: unknown): string {
  const address = url instanceof URL ? url.href : url;
  try {
    // An address of another type would be reopened as a relative path such as `/undefined`.
    if (
      typeof address === 'string' &&
      address.trim() &&
      /^https?:$/.test(new URL(address, 'http://localhost/').protocol)
    ) {
      return address;
    }
  } catch {
    // Not an address at all: refused below.
  }
  throw new ConfigurationError('url', '`url` must be an http(s) URL');
}

/**
 * The event a message holds, by the webhook parser's decoding of text and its checks (the text
 * `parseWebhookEvent` takes, this takes); a message they refuse throws, to be dropped unworded.
 */
export function relayedEvent(data: unknown): ScoreUpdatedEvent {
  // JSON.parse refuses an empty or blank text, as the parser does; an EventSource's data is text, and
  // anything else reads as no JSON event (`[object Object]`, `undefined`) or as no object (`5`).
  return checkEvent(JSON.parse(withoutBom(String(data))), dropped);
}

const dropped = (why: string): never => {
  throw new Error(why);
};

/** Calls `work`, ignoring what it throws or rejects with: following must not end on a handler's failure. */
function ignoringFailure(work: () => unknown): void {
  // What `work` throws at once rejects the promise too: the executor turns it into a rejection.
  new Promise((resolve) => resolve(work())).catch(() => {});
}
