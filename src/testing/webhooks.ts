import { Deadline } from '../core/abort.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';

/**
 * The outcome of one webhook POST. The mock tries once and does not retry (a gap in the API document).
 *
 * @example
 * ```ts
 * const { deliveries } = await api.updateScore(7, 81);
 * expect(deliveries).toEqual([{ url: receiverUrl, ok: true, status: 204 }]);
 * ```
 */
export interface MockWebhookDelivery {
  readonly url: string;
  /** A 2xx answer came back. */
  readonly ok: boolean;
  /** The receiver's status, when it answered. */
  readonly status?: number;
  /** Why nothing came back (refused connection, timeout…), when it did not answer. */
  readonly error?: string;
}

/**
 * What `updateScore` did: the event and one delivery per subscribed URL.
 *
 * @example
 * ```ts
 * const { event, deliveries } = await api.updateScore(7, 81);
 * ```
 */
export interface MockScoreUpdate {
  readonly event: ScoreUpdatedEvent;
  readonly deliveries: readonly MockWebhookDelivery[];
}

/**
 * Where and how the mock delivers `score_updated` events.
 *
 * @example
 * ```ts
 * createMockApi({ webhooks: { urls: ['http://127.0.0.1:8080/hooks'] } });
 * ```
 */
export interface MockWebhookOptions {
  /** URLs that receive every event, like the URL configured in the service's dashboard. @default [] */
  readonly urls?: readonly string[] | undefined;
  /** The fetch that POSTs events, e.g. to call a receiver in-process. @default globalThis.fetch */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Give up on a receiver after this many ms. @default 5000 */
  readonly timeoutMs?: number | undefined;
}

/** `YYYY-MM-DDThh:mm:ssZ` (API §6: no fraction of a second). */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * POSTs the event as JSON to one URL. Headers: `content-type: application/json` and
 * `user-agent: scholarly-metrics-mock` (delivery headers are a gap in the API document). A redirect
 * is the receiver's answer, not followed: `fetch` would follow a 301 or 302 with a GET and no body,
 * and a page answering it would pass for a receiver that took the event.
 */
export async function deliver(
  url: string,
  event: ScoreUpdatedEvent,
  fetchImpl: typeof globalThis.fetch,
  timeoutMs: number,
): Promise<MockWebhookDelivery> {
  // A deadline raced, not only a signal: a fetch that ignores its signal (a handler called
  // in-process never reads it) still ends at the timeout.
  const deadline = new Deadline(timeoutMs, undefined);
  try {
    const sent = fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'scholarly-metrics-mock' },
      body: JSON.stringify(event),
      signal: deadline.signal,
      redirect: 'manual',
    });
    const response = await deadline.race(sent);
    // The body is let go, not waited for: a stream whose cancel never settles must not hold the delivery.
    response.body?.cancel().catch(() => {});
    // A browser's fetch shows a redirect only as this, with no status.
    if (response.type === 'opaqueredirect') {
      return { url, ok: false, error: 'answered with a redirect, which the mock does not follow' };
    }
    return { url, ok: response.ok, status: response.status };
  } catch (error) {
    if (deadline.timedOut) return { url, ok: false, error: `no answer within ${timeoutMs} ms` };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { url, ok: false, error: `${error instanceof Error ? error.message : String(error)}${cause}` };
  } finally {
    deadline.clear();
  }
}
