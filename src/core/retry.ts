import { APIError, ConnectionError, RateLimitError } from './errors.js';

/** A server asking for a longer wait than this is surfaced at once: it is a daily limit, not a blip. */
export const maxRetryAfterSeconds = 60;

/**
 * p-retry's own backoff: about 0.5 s before the first retry, doubling, capped at 8 s; p-retry's
 * `randomize` stretches each wait by a random factor from 1 to 2, so that clients failed by the same
 * outage do not come back in step. Its cap comes after the stretch, so from the fifth retry (a
 * `maxRetries` of 5 or more) every wait would be 8 s, in step again: the transport stretches a wait
 * at the cap by up to half again (8 to 12 s).
 */
export const backoff = { factor: 2, minTimeout: 500, maxTimeout: 8_000, randomize: true } as const;

/**
 * Whether a failed attempt is worth another: connection failures and timeouts, 500/502/503/504, and
 * 429, unless the server asked for a wait longer than {@link maxRetryAfterSeconds}. Not a proxy's
 * 4xx refusal of the tunnel to the API, which Node's fetch words with its status in parentheses
 * (`Proxy response (407) !== 200 …`, `Proxy Authentication Required (407)`, the wording the command
 * line's hint reads too): its credentials (407) or a host it does not allow (403) would be refused
 * the same on every attempt, where its 502/503/504 may pass.
 */
export function isRetryable(error: unknown): boolean {
  // A bounded gap: the message holds the URL, a search term included, and `.*` would make each
  // `Proxy` in it scan to the end.
  if (error instanceof ConnectionError) return !/Proxy.{0,40} \(4\d\d\)/.test(error.message);
  if (!(error instanceof APIError)) return false;
  if (![429, 500, 502, 503, 504].includes(error.status)) return false;
  const seconds = retryAfterOf(error);
  return seconds === undefined || seconds <= maxRetryAfterSeconds;
}

/** The wait the server asked for before the next attempt, in milliseconds, if it said. */
export function requestedWait(error: unknown): number | undefined {
  if (!(error instanceof APIError)) return undefined;
  const seconds = retryAfterOf(error);
  return seconds === undefined ? undefined : seconds * 1000;
}

function retryAfterOf(error: APIError): number | undefined {
  return error instanceof RateLimitError ? error.retryAfter : parseRetryAfter(error.headers);
}

/**
 * The longest `Retry-After` taken as said, in seconds: a day, the longest of the API's limits. A longer
 * one (a server's mistake, or a hostile one) counts as this, so every wait and date made from it is valid.
 */
export const retryAfterCeilingSeconds = 86_400;

/**
 * `Retry-After` in seconds, from either form the HTTP standard allows: seconds or an HTTP date; a
 * finite number from 0 to {@link retryAfterCeilingSeconds}, or `undefined` when it is neither form.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  // Enough digits make Number() Infinity: the ceiling makes it a day like any wait past it.
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Number(value), retryAfterCeilingSeconds);
  // Only an HTTP date is a date here, not whatever Date.parse accepts: "Wed, 21 Oct 2026 07:28:00 GMT",
  // or the obsolete forms a recipient must take too, "Wednesday, 21-Oct-26 07:28:00 GMT" and asctime's
  // "Wed Oct 21 07:28:00 2026", which names no zone: it is GMT, where Date.parse would read local time.
  // A date with a comma but no GMT is no HTTP date: read, it would be local time, which differs by machine.
  const asctime = /^[a-z]{3} [a-z]{3} [ \d]?\d \d\d:\d\d:\d\d \d{4}$/i.test(value);
  if (!asctime && !/^[a-z]{3,9}, .* GMT$/i.test(value)) return undefined;
  const date = Date.parse(asctime ? `${value} GMT` : value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), retryAfterCeilingSeconds);
}
