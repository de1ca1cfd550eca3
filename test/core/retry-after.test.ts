// How a Retry-After header is read, and which errors it leaves retryable.
import { describe, expect, it, vi } from 'vitest';
import {
  isRetryable,
  parseRetryAfter,
  requestedWait,
  retryAfterCeilingSeconds,
} from '../../src/core/retry.js';
import { InternalServerError, RateLimitError } from '../../src/index.js';

describe('Retry-After', () => {
  it('parses the seconds and the three date forms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const at = (value: string) => parseRetryAfter(new Headers({ 'retry-after': value }), now);
    expect(at('30')).toBe(30);
    expect(at('0')).toBe(0);
    expect(at('Thu, 01 Jan 2026 00:00:45 GMT')).toBe(45);
    expect(at('Wed, 31 Dec 2025 23:00:00 GMT')).toBe(0);
    // The obsolete RFC 850 form, which a recipient must take too (RFC 9110 §5.6.7).
    expect(at('Thursday, 01-Jan-26 00:00:45 GMT')).toBe(45);
    // asctime's form names no zone: it is GMT (RFC 9110), however the process's own zone reads it.
    vi.stubEnv('TZ', 'Asia/Tokyo');
    try {
      expect(at('Thu Jan  1 00:00:45 2026')).toBe(45);
      expect(at('Thu Jan 1 00:00:45 2026')).toBe(45);
      // Only asctime's exact shape: not a date with a zone of its own, nor a day without a time.
      for (const text of ['Thu Jan 1 00:00:45 2026 GMT+0900', 'Fri Jan 2', 'Thu Jan 1, 2026 00:00:45'])
        expect(at(text), text).toBeUndefined();
      // The other two forms always name GMT: one without it is no HTTP date, not a local time that
      // would differ from one machine to the next.
      for (const text of [
        'Thu, 01 Jan 2026 00:00:45',
        'Thu, 01 Jan 2026 00:00:45 +0900',
        'Thursday, 01-Jan-26 00:00:45',
      ])
        expect(at(text), text).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
    expect(at('soon')).toBeUndefined();
    expect(at('-5')).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });

  it('reads no text but the two forms as a wait, whatever Date.parse makes of it', () => {
    const at = (value: string) =>
      parseRetryAfter(new Headers({ 'retry-after': value }), Date.UTC(2026, 0, 1));
    for (const text of ['about 5', 'Retry 120', 'seconds 60']) expect(at(text), text).toBeUndefined();
  });

  it('Retry-After past a day counts as a day (retryAfterCeilingSeconds): always a finite number', () => {
    const at = (value: string) =>
      parseRetryAfter(new Headers({ 'retry-after': value }), Date.UTC(2026, 0, 1));
    expect(retryAfterCeilingSeconds).toBe(86_400);
    expect(at('86400')).toBe(86_400);
    expect(at('86401')).toBe(86_400);
    expect(at('10000000000000')).toBe(86_400);
    expect(at('9'.repeat(400))).toBe(86_400); // Number() of it is Infinity
    expect(at('Sat, 13 Sep 275760 00:00:00 GMT')).toBe(86_400); // the last date a Date holds
    expect(at('Sun, 14 Sep 275760 00:00:00 GMT')).toBeUndefined(); // past it: no date at all
    expect(at('1e300')).toBeUndefined(); // not a form the standard allows
  });

  it('what is retryable: Retry-After above 60 s means no retry; no Retry-After means backoff', () => {
    const rateLimit = (seconds?: number) => new RateLimitError(429, new Headers(), undefined, seconds);
    expect(isRetryable(rateLimit(60))).toBe(true);
    expect(requestedWait(rateLimit(60))).toBe(60_000);
    expect(isRetryable(rateLimit(61))).toBe(false);
    expect(isRetryable(rateLimit(undefined))).toBe(true);
    expect(requestedWait(rateLimit(undefined))).toBeUndefined();
    const unavailable = new InternalServerError(503, new Headers({ 'retry-after': '7200' }), undefined);
    expect(isRetryable(unavailable)).toBe(false);
    expect(isRetryable(new Error('other'))).toBe(false);
  });
});
