import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { backoff, parseRetryAfter, retryDelay } from '../../src/core/retry.js';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/index.js';
import { BASE, client, json, sequence, useMsw } from '../helpers/msw.js';

const server = useMsw();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];
/** `Retry-After: 0` keeps retry tests fast while still going through the retry path. */
const fail = (status: number) => () => json({ message: 'nope' }, { status, headers: { 'retry-after': '0' } });
const ok = () => json(subjects);

describe('what is retried', () => {
  for (const status of [500, 502, 503, 504, 429]) {
    it(`${status} is retried, and a later success wins`, async () => {
      const { handler, seen } = sequence('/subjects', [fail(status), fail(status), ok]);
      server.use(handler);
      await expect(client().subjects.list()).resolves.toEqual(subjects);
      expect(seen).toHaveLength(3);
    });
  }

  for (const [status, type] of [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
  ] as const) {
    it(`${status} is never retried`, async () => {
      const { handler, seen } = sequence('/subjects', [fail(status), ok]);
      server.use(handler);
      await expect(client({ maxRetries: 5 }).subjects.list()).rejects.toBeInstanceOf(type);
      expect(seen).toHaveLength(1);
    });
  }

  it('gives up after maxRetries (client default 2 → 3 attempts)', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    await expect(client().subjects.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(3);
  });

  it('maxRetries per request overrides the client', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    await expect(client({ maxRetries: 5 }).subjects.list({ maxRetries: 1 })).rejects.toThrow(
      InternalServerError,
    );
    expect(seen).toHaveLength(2);
  });

  it('maxRetries 0 sends once', async () => {
    const { handler, seen } = sequence('/subjects', [fail(500)]);
    server.use(handler);
    await expect(client({ maxRetries: 0 }).subjects.list()).rejects.toThrow(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it('a 501 is not retried', async () => {
    const { handler, seen } = sequence('/subjects', [fail(501)]);
    server.use(handler);
    await expect(client().subjects.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it('a connection failure is retried', async () => {
    const { handler, seen } = sequence('/subjects', [() => HttpResponse.error(), ok]);
    server.use(handler);
    await expect(client().subjects.list()).resolves.toEqual(subjects);
    expect(seen).toHaveLength(2);
  });
});

describe('Retry-After', () => {
  it('a daily-limit 429 with a long Retry-After surfaces at once, with retryAfter', async () => {
    const { handler, seen } = sequence('/subjects', [
      () => json({ message: 'daily limit' }, { status: 429, headers: { 'retry-after': '43200' } }),
    ]);
    server.use(handler);
    const started = performance.now();
    const error = (await client()
      .subjects.list()
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(43200);
    expect(seen).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('waits the Retry-After seconds the server asked for', async () => {
    const { handler, seen } = sequence('/subjects', [
      () => json({}, { status: 429, headers: { 'retry-after': '1' } }),
      ok,
    ]);
    server.use(handler);
    const started = performance.now();
    await client().subjects.list();
    const waited = performance.now() - started;
    expect(seen).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it('accepts an HTTP date', async () => {
    const soon = new Date(Date.now() + 1_000).toUTCString();
    const { handler, seen } = sequence('/subjects', [
      () => json({}, { status: 503, headers: { 'retry-after': soon } }),
      ok,
    ]);
    server.use(handler);
    await client().subjects.list();
    expect(seen).toHaveLength(2);
  });

  it('parses both forms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const at = (value: string) => parseRetryAfter(new Headers({ 'retry-after': value }), now);
    expect(at('30')).toBe(30);
    expect(at('0')).toBe(0);
    expect(at('Thu, 01 Jan 2026 00:00:45 GMT')).toBe(45);
    expect(at('Wed, 31 Dec 2025 23:00:00 GMT')).toBe(0);
    expect(at('soon')).toBeUndefined();
    expect(at('-5')).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('starts near 0.5 s, doubles, caps near 8 s, with jitter below the ceiling', () => {
    for (let i = 0; i < 200; i++) {
      const first = backoff(1);
      expect(first).toBeGreaterThanOrEqual(375);
      expect(first).toBeLessThanOrEqual(500);
      const second = backoff(2);
      expect(second).toBeGreaterThanOrEqual(750);
      expect(second).toBeLessThanOrEqual(1_000);
      const late = backoff(12);
      expect(late).toBeGreaterThanOrEqual(6_000);
      expect(late).toBeLessThanOrEqual(8_000);
    }
  });

  it('retryDelay: Retry-After above 60 s means no retry; none means backoff', () => {
    const rateLimit = (seconds?: number) => new RateLimitError(429, new Headers(), undefined, seconds);
    expect(retryDelay(rateLimit(60), 1)).toBe(60_000);
    expect(retryDelay(rateLimit(61), 1)).toBeUndefined();
    expect(retryDelay(rateLimit(undefined), 1)).toBeLessThanOrEqual(500);
    const unavailable = new InternalServerError(503, new Headers({ 'retry-after': '7200' }), undefined);
    expect(retryDelay(unavailable, 1)).toBeUndefined();
    expect(retryDelay(new Error('other'), 1)).toBeUndefined();
  });
});

it('5xx without Retry-After waits a real backoff between attempts', async () => {
  const { handler, seen } = sequence('/subjects', [() => new HttpResponse(null, { status: 503 }), ok]);
  server.use(handler);
  const started = performance.now();
  await client().subjects.list();
  expect(seen).toHaveLength(2);
  expect(performance.now() - started).toBeGreaterThanOrEqual(370);
});

it('retries honour the per-request path (the same URL each time)', async () => {
  const { handler, seen } = sequence('/subjects', [fail(500), ok]);
  server.use(handler);
  await client().subjects.list();
  expect(seen.map((r) => r.url)).toEqual([`${BASE}/subjects`, `${BASE}/subjects`]);
});

it('http handler sanity: unhandled paths are errors, not network leaks', async () => {
  server.use(http.get(`${BASE}/other`, () => ok()));
  await expect(client({ maxRetries: 0 }).subjects.list()).rejects.toThrow();
});
