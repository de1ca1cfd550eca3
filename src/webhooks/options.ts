import { ConfigurationError } from '../core/errors.js';
import {
  checkFunction,
  checkInteger,
  checkNames,
  checkObject,
  checkOneOf,
  maxTimerMs,
  type OptionNames,
  type Resolved,
} from '../core/options/checks.js';
import type { TelemetryOptions } from '../core/telemetry-types.js';
import type { WebhookEvent } from './event.js';

/**
 * Options of {@link createWebhookHandler} and {@link createNodeWebhookHandler}.
 *
 * @example
 * ```ts
 * const options: WebhookHandlerOptions = {
 *   maxBodyBytes: 16_384,
 *   bodyTimeoutMs: 5_000,
 *   onError: (error) => logger.error({ err: error }, 'webhook callback failed'),
 *   cache: client.cache,
 *   cacheFailure: 'reject', // 503 when the cache's store is down: the sender delivers it again
 * };
 * ```
 */
export interface WebhookHandlerOptions {
  /**
   * The largest body accepted, in bytes. A larger one is answered 413 without reading it all (a
   * `score_updated` event is about 150 bytes). A body another middleware already read (Express's
   * `req.body`) is bounded by that middleware's own limit instead.
   * @default 65_536
   */
  maxBodyBytes?: number | undefined;
  /**
   * How long the whole body may take to arrive, in milliseconds, counted from when the handler starts
   * reading it. A slower body (a client trickling bytes, or one that stops sending) is answered 408
   * and its connection released: the Node handler closes it, the Fetch handler cancels the body
   * stream. A body refused unread (its length or coding) is let go within the same time. A body
   * another middleware already read is not timed here. An integer from 1 to
   * 2_147_483_647 (setTimeout's limit).
   * @default 10_000
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * Called with whatever your callback threw or rejected with; the sender then gets a bare 500. Also
   * called for failures of the receiver itself (e.g. a body another middleware consumed), when
   * `cache.apply` fails (the sender then gets the answer `cacheFailure` says), and when the `telemetry`
   * providers throw (the delivery is answered as usual). Errors it throws are ignored.
   * @default logs the error with `console.error`
   */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * A cache to keep fresh, such as a client's `client.cache`: each valid event is handed to its
   * `apply` before `onEvent` runs. A failing `apply` goes to `onError` (or `console.warn`); what the
   * sender is answered then is `cacheFailure`'s choice.
   * @default none
   */
  cache?: { apply(event: WebhookEvent): unknown } | undefined;
  /**
   * What the sender is answered when `cache.apply` throws or rejects (its store unreachable, say):
   * - `'accept'`: 200 as for any delivery, once `onEvent` has run. The cache keeps the entries the
   *   event contradicts until their lifetime ends.
   * - `'reject'`: 503 `{"error":"cache_unavailable",…}`, and `onEvent` is not called: the sender
   *   delivers the event again later, when the store may be back. Choose it when readers sharing the
   *   cache must not be served a score an event has replaced.
   * Either way `onError` (or `console.warn`) is told.
   * @default 'accept'
   */
  cacheFailure?: 'accept' | 'reject' | undefined;
  /**
   * Your OpenTelemetry providers, as the client takes them: a SERVER span per delivery
   * (`webhooks.receive`) and the `scholarly_metrics.webhooks.deliveries` counter.
   * @default no telemetry
   */
  telemetry?: TelemetryOptions | undefined;
}

/** A receiver's options once checked, their defaults applied: `onError` and `cache` stay optional. */
export type ResolvedWebhookHandlerOptions = Resolved<
  Pick<WebhookHandlerOptions, 'maxBodyBytes' | 'bodyTimeoutMs' | 'cacheFailure'>
> &
  Pick<WebhookHandlerOptions, 'onError' | 'cache'>;

const optionNames: OptionNames<WebhookHandlerOptions> = {
  maxBodyBytes: true,
  bodyTimeoutMs: true,
  onError: true,
  cache: true,
  cacheFailure: true,
  telemetry: true,
};

/** A receiver's callback and options, checked when it is created, with their defaults applied. */
export function resolveWebhookHandlerOptions(
  onEvent: unknown,
  options: WebhookHandlerOptions | undefined,
): ResolvedWebhookHandlerOptions {
  if (typeof onEvent !== 'function') {
    const got = onEvent === null ? 'null' : typeof onEvent;
    throw new ConfigurationError('onEvent', `onEvent must be a function, got ${got}`);
  }
  // Not null, not an array (`typeof [] === 'object'`): the shared check every entry's options get.
  checkObject('options', options);
  if (options) checkNames('the receiver', options, Object.keys(optionNames));
  const cache = options?.cache;
  if (cache !== undefined && typeof (cache as { apply?: unknown } | null)?.apply !== 'function') {
    throw new ConfigurationError('cache', 'cache must have an apply(event) method, such as client.cache');
  }
  return {
    maxBodyBytes: checkInteger('maxBodyBytes', options?.maxBodyBytes, 1, Number.MAX_SAFE_INTEGER) ?? 65_536,
    // An integer: the body's deadline is one timer, and setTimeout's limit bounds it.
    bodyTimeoutMs: checkInteger('bodyTimeoutMs', options?.bodyTimeoutMs, 1, maxTimerMs) ?? 10_000,
    onError: checkFunction<(error: unknown) => void>('onError', options?.onError),
    cache,
    cacheFailure:
      checkOneOf('cacheFailure', options?.cacheFailure, ['accept', 'reject'] as const) ?? 'accept',
  };
}
