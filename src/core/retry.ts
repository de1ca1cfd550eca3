import { APIError, ConnectionError, RateLimitError } from './errors.js';

/** A server asking for a longer wait than this is surfaced at once: it is a daily limit, not a blip. */
export const maxRetryAfterSeconds = 60;
const initialDelayMs = 500;
const maxDelayMs = 8_000;
const retriedStatuses = new Set([500, 502, 503, 504]);

/** Whether a failed attempt is worth another, and after how many milliseconds; `undefined` means never. */
export function retryDelay(error: unknown, retryNumber: number): number | undefined {
  if (error instanceof ConnectionError) return backoff(retryNumber);
  if (!(error instanceof APIError)) return undefined;
  if (error.status !== 429 && !retriedStatuses.has(error.status)) return undefined;
  const retryAfter = error instanceof RateLimitError ? error.retryAfter : parseRetryAfter(error.headers);
  if (retryAfter === undefined) return backoff(retryNumber);
  return retryAfter <= maxRetryAfterSeconds ? retryAfter * 1000 : undefined;
}

/** About 0.5 s doubling per retry, capped at 8 s, minus up to a quarter of jitter. */
export function backoff(retryNumber: number): number {
  const ceiling = Math.min(initialDelayMs * 2 ** (retryNumber - 1), maxDelayMs);
  return Math.round(ceiling * (1 - Math.random() * 0.25));
}

/** `Retry-After` in seconds, from either form the HTTP standard allows: seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  // Only an HTTP date ("Wed, 21 Oct 2026 07:28:00 GMT") is a date here, not whatever Date.parse accepts.
  if (!/^[a-z]{3}, /i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
