/** Faults in what the server answers: proxy pages, wrong bodies, rate limits and outages. */
import { expect } from 'vitest';
import { type RateLimitError, ResponseValidationError } from '../../../src/index.js';
import { htmlPage, json, subjects } from '../fault-server.js';
import { errorOf, type FaultCase, ok, on } from './shared.js';

export const answerFaults: readonly FaultCase[] = [
  {
    fault: "proxy's HTML 502 page",
    server: '502 text/html from "nginx", every time',
    sdk: 'retried after backoff (0.5–1 s, then 1–2 s); the HTML is kept as text in `error.body`',
    prepare: on(htmlPage(502, 'Bad Gateway')),
    outcome: 'InternalServerError',
    sent: 3,
    seen: 3,
    minMs: 1_450,
    check: (result) => {
      const error = errorOf(result);
      expect(error.status).toBe(502);
      expect(error.body).toMatch(/^<html>/);
      expect(error.message).toMatch(/^502 Bad Gateway: <html>/);
    },
  },
  {
    fault: "proxy's HTML 503 page, Retry-After: 1, then healthy",
    server: '503 text/html with Retry-After: 1, a valid answer after',
    sdk: 'waits the second it was told (longer than the backoff), then returns the answer',
    prepare: on(htmlPage(503, 'Service Temporarily Unavailable', { 'retry-after': '1' }), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 950,
  },
  {
    fault: 'HTML page with status 200',
    server: 'a login or captive-portal page, 200 text/html',
    sdk: 'not the API: refused, not retried, the page kept in `error.body`',
    prepare: on(htmlPage(200, 'Please sign in')),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    check: (result) => {
      expect((result.error as ResponseValidationError).body).toContain('Please sign in');
    },
  },
  {
    fault: '200 with wrong types',
    server: 'valid JSON, but `id` a string, `name` a number, `journals` a float',
    sdk: 'refused with every issue by path; not retried',
    prepare: on(json([{ ...subjects[0], id: '1', name: 7, journals: 3.5 }])),
    outcome: 'ResponseValidationError',
    sent: 1,
    seen: 1,
    check: (result) => {
      const error = result.error as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['0.id', '0.name', '0.journals']);
    },
  },
  {
    fault: '200 with unknown extra fields',
    server: 'valid answer plus fields the API document does not list',
    sdk: 'accepted; the extra fields are kept',
    prepare: on(
      json(
        [
          { ...subjects[0], impact: 3.2, tags: ['x'] },
          { ...subjects[1], _links: { self: '/x' } },
        ],
        200,
        { 'x-new-header': '1' },
      ),
    ),
    outcome: 'success',
    sent: 1,
    seen: 1,
    check: (result) => {
      expect(result.value).toEqual([
        { ...subjects[0], impact: 3.2, tags: ['x'] },
        { ...subjects[1], _links: { self: '/x' } },
      ]);
    },
  },
  {
    fault: '429, Retry-After in seconds (1)',
    server: '429 Retry-After: 1, a valid answer after',
    sdk: 'waits the second it was told (longer than the backoff), then returns the answer',
    prepare: on(json({ message: 'slow down' }, 429, { 'retry-after': '1' }), ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 950,
  },
  {
    fault: '429, Retry-After as an HTTP date (≈2 s ahead)',
    server: '429 Retry-After: <HTTP date 2 s ahead>, a valid answer after',
    sdk: 'waits until that date (1–2 s: the header counts whole seconds), then returns the answer',
    // The date, cut to whole seconds, is at least 1 s after the server wrote it, hence after the
    // call began: however long the answer took to arrive, the wait ends no sooner.
    prepare: on((req, res, attempt) => {
      const soon = new Date(Date.now() + 2_000).toUTCString();
      json({ message: 'slow down' }, 429, { 'retry-after': soon })(req, res, attempt);
    }, ok),
    outcome: 'success',
    sent: 2,
    seen: 2,
    minMs: 950,
  },
  {
    fault: '429, Retry-After far in the future (3600 s)',
    server: '429 Retry-After: 3600 (a daily limit)',
    sdk: 'surfaces at once, not retried; `retryAfter` is 3600',
    prepare: on(json({ message: 'daily limit reached' }, 429, { 'retry-after': '3600' })),
    outcome: 'RateLimitError',
    sent: 1,
    seen: 1,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBe(3600);
    },
  },
  {
    fault: '429, Retry-After an HTTP date tomorrow',
    server: '429 Retry-After: <HTTP date 24 h ahead>',
    sdk: 'surfaces at once, not retried; `retryAfter` ≈ 86 400',
    prepare: on((req, res, attempt) => {
      const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
      json({ message: 'daily limit reached' }, 429, { 'retry-after': tomorrow })(req, res, attempt);
    }),
    outcome: 'RateLimitError',
    sent: 1,
    seen: 1,
    check: (result) => {
      const retryAfter = (result.error as RateLimitError).retryAfter!;
      expect(retryAfter).toBeGreaterThanOrEqual(86_390);
      expect(retryAfter).toBeLessThanOrEqual(86_401);
    },
  },
  {
    fault: '429 storm, Retry-After: 0',
    server: '429 Retry-After: 0, every time',
    sdk: '`Retry-After: 0` does not skip the backoff (0.5–1 s, then 1–2 s); `RateLimitError` after `maxRetries` retries',
    prepare: on(json({ message: 'slow down' }, 429, { 'retry-after': '0' })),
    outcome: 'RateLimitError',
    sent: 3,
    seen: 3,
    minMs: 1_450,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBe(0);
    },
  },
  {
    fault: '429 storm, no Retry-After',
    server: '429 without Retry-After, every time',
    sdk: 'retries after backoff (0.5–1 s, then 1–2 s), then `RateLimitError` (`retryAfter` undefined)',
    prepare: on(json({ message: 'slow down' }, 429)),
    outcome: 'RateLimitError',
    sent: 3,
    seen: 3,
    minMs: 1_450,
    check: (result) => {
      expect((result.error as RateLimitError).retryAfter).toBeUndefined();
    },
  },
  {
    fault: '503 storm, Retry-After: 0',
    server: '503 JSON with Retry-After: 0, every time',
    sdk: 'exactly `maxRetries` (here 3) retries, never more, each after its backoff (0.5–1 s, 1–2 s, 2–4 s)',
    prepare: on(json({ message: 'overloaded' }, 503, { 'retry-after': '0' })),
    options: { maxRetries: 3 },
    outcome: 'InternalServerError',
    sent: 4,
    seen: 4,
    minMs: 3_450,
  },
  {
    fault: '503 storm, no Retry-After',
    server: '503 JSON, every time',
    sdk: 'backoff 0.5–1 s, then 1–2 s, then `InternalServerError`',
    prepare: on(json({ message: 'overloaded' }, 503)),
    outcome: 'InternalServerError',
    sent: 3,
    seen: 3,
    minMs: 1_450,
  },
  {
    fault: '503 for maintenance, Retry-After: 7200',
    server: '503 JSON with Retry-After: 7200 (two hours)',
    sdk: 'surfaces at once, not retried: a wait that long is the caller’s decision',
    prepare: on(json({ message: 'maintenance' }, 503, { 'retry-after': '7200' })),
    outcome: 'InternalServerError',
    sent: 1,
    seen: 1,
    check: (result) => {
      expect(errorOf(result).headers.get('retry-after')).toBe('7200');
    },
  },
  {
    fault: '503 twice, then healthy',
    server: '503 Retry-After: 0 twice, a valid answer after',
    sdk: 'returns the answer on the third attempt, after the backoff (0.5–1 s, then 1–2 s)',
    prepare: on(
      json({ message: 'overloaded' }, 503, { 'retry-after': '0' }),
      json({ message: 'overloaded' }, 503, { 'retry-after': '0' }),
      ok,
    ),
    outcome: 'success',
    sent: 3,
    seen: 3,
    minMs: 1_450,
  },
];
