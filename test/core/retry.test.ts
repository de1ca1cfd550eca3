import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isRetryable,
  parseRetryAfter,
  requestedWait,
  retryAfterCeilingSeconds,
} from '../../src/core/retry.js';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
} from '../../src/index.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';

const server = useMsw();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];
/** `Retry-After: 0` keeps retry tests fast while still going through the retry path. */
const fail = (status: number) => () => json({ message: 'nope' }, { status, headers: { 'retry-after': '0' } });
const ok = () => json(subjects);

describe('what is retried', () => {
  beforeEach(() => useFakeClock({ random: 0.5 }));

  for (const status of [500, 502, 503, 504, 429]) {
    it(`${status} is retried, and a later success wins`, async () => {
      const { handler, seen } = sequence('/subjects', [fail(status), fail(status), ok]);
      server.use(handler);
      expect(await settleOnFakeClock(testClient().subjects.list())).toEqual(subjects);
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
      expect(await settleOnFakeClock(testClient({ maxRetries: 5 }).subjects.list())).toBeInstanceOf(type);
      expect(seen).toHaveLength(1);
    });
  }

  it('gives up after maxRetries (client default 2 → 3 attempts)', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(3);
  });

  it('maxRetries per request overrides the client', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    expect(
      await settleOnFakeClock(testClient({ maxRetries: 5 }).subjects.list({ maxRetries: 1 })),
    ).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
  });

  it('maxRetries 0 sends once', async () => {
    const { handler, seen } = sequence('/subjects', [fail(500)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient({ maxRetries: 0 }).subjects.list())).toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(1);
  });

  it('a 501 is not retried', async () => {
    const { handler, seen } = sequence('/subjects', [fail(501)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it('a connection failure is retried', async () => {
    const { handler, seen } = sequence('/subjects', [() => HttpResponse.error(), ok]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toEqual(subjects);
    expect(seen).toHaveLength(2);
  });

  /** A call whose every attempt fails with `fetch failed` caused by `words`: its error and attempts. */
  async function failingWith(words: string) {
    let sent = 0;
    const fetch = async () => {
      sent++;
      throw new TypeError('fetch failed', { cause: new Error(words) });
    };
    const error = await settleOnFakeClock(testClient({ fetch }).subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    return { message: (error as Error).message, sent };
  }

  // Node's fetch behind a proxy (NODE_USE_ENV_PROXY=1) when the proxy refuses the tunnel, in its words.
  for (const [status, attempts] of [
    [407, 1],
    [403, 1],
    [502, 3],
    [503, 3],
  ] as const) {
    it(`a proxy's ${status} for the tunnel is ${attempts === 1 ? 'never retried: it would say the same again' : 'retried, as the gateway it is'}`, async () => {
      const { message, sent } = await failingWith(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
      expect(message).toContain(`(${status})`);
      expect(sent).toBe(attempts);
    });
  }

  it('a connection failure that is no proxy refusal is retried, whatever status its words quote', async () => {
    expect((await failingWith('upstream said (404)')).sent).toBe(3);
  });

  it("a proxy's 407 as Node's own tunnel words it is never retried", async () => {
    expect((await failingWith('Proxy Authentication Required (407)')).sent).toBe(1);
  });
});

/** Attempts sent by the time `ms` have passed since the call. */
async function sentBy(seen: readonly Request[], ms: number, now: { at: number }): Promise<number> {
  await vi.advanceTimersByTimeAsync(ms - now.at);
  now.at = ms;
  return seen.length;
}

/**
 * A call with `maxRetries` of `schedule.length` to an API that answers 503 every time: its retries go
 * out at `schedule` (ms of the fake clock), not a millisecond before, and it ends in the 503's error.
 */
async function expectRetriesAt(schedule: readonly number[]) {
  const { handler, seen } = sequence('/subjects', [() => new HttpResponse(null, { status: 503 })]);
  server.use(handler);
  const outcome = testClient({ maxRetries: schedule.length })
    .subjects.list()
    .catch((error: unknown) => error);
  const now = { at: 0 };
  expect(await sentBy(seen, 1, now)).toBe(1);
  for (const [index, at] of schedule.entries()) {
    expect(await sentBy(seen, at - 1, now)).toBe(index + 1);
    expect(await sentBy(seen, at, now)).toBe(index + 2);
  }
  expect(await outcome).toBeInstanceOf(InternalServerError);
}

describe('backoff and Retry-After, on fake timers', () => {
  it('waits about 0.5 s before the first retry, doubling, capped at 8 s', async () => {
    useFakeClock();
    // Attempts at 0, 0.5, 1.5, 3.5, 7.5, 15.5 and 23.5 s: waits of 0.5, 1, 2, 4, 8 and 8 (capped) s.
    await expectRetriesAt([500, 1_500, 3_500, 7_500, 15_500, 23_500]);
  });

  it('jitter stretches a wait up to twice the base, never shortens it', async () => {
    useFakeClock({ random: 0.999 });
    const { handler, seen } = sequence('/subjects', [() => new HttpResponse(null, { status: 503 }), ok]);
    server.use(handler);
    const result = testClient().subjects.list();
    const now = { at: 0 };
    expect(await sentBy(seen, 998, now)).toBe(1);
    expect(await sentBy(seen, 1_000, now)).toBe(2);
    await expect(result).resolves.toEqual(subjects);
  });

  it('a wait at the 8 s cap is stretched too, by up to half again: clients failed together do not retry in step', async () => {
    useFakeClock({ random: 0.5 });
    // p-retry's waits, stretched 1.5×: 750, 1,500, 3,000, 6,000, then its cap, 8,000 and 8,000, each
    // stretched here by a quarter (half of 0.5): 10,000. Attempts at 0, 0.75, 2.25, 5.25, 11.25, 21.25, 31.25 s.
    await expectRetriesAt([750, 2_250, 5_250, 11_250, 21_250, 31_250]);
  });

  it('waits the Retry-After seconds the server asked for, when longer than the backoff', async () => {
    useFakeClock();
    const { handler, seen } = sequence('/subjects', [
      () => json({}, { status: 429, headers: { 'retry-after': '3' } }),
      ok,
    ]);
    server.use(handler);
    const result = testClient().subjects.list();
    const now = { at: 0 };
    expect(await sentBy(seen, 2_999, now)).toBe(1);
    expect(await sentBy(seen, 3_000, now)).toBe(2);
    await expect(result).resolves.toEqual(subjects);
  });

  it('Retry-After: 0 still waits the backoff, so a busy server is not hammered', async () => {
    useFakeClock();
    const { handler, seen } = sequence('/subjects', [fail(503), ok]);
    server.use(handler);
    const result = testClient().subjects.list();
    const now = { at: 0 };
    expect(await sentBy(seen, 499, now)).toBe(1);
    expect(await sentBy(seen, 500, now)).toBe(2);
    await expect(result).resolves.toEqual(subjects);
  });

  it('accepts an HTTP date', async () => {
    useFakeClock();
    const soon = new Date(Date.now() + 5_000).toUTCString();
    const { handler, seen } = sequence('/subjects', [
      () => json({}, { status: 503, headers: { 'retry-after': soon } }),
      ok,
    ]);
    server.use(handler);
    const result = testClient().subjects.list();
    const now = { at: 0 };
    expect(await sentBy(seen, 4_999, now)).toBe(1);
    expect(await sentBy(seen, 5_000, now)).toBe(2);
    await expect(result).resolves.toEqual(subjects);
  });

  it('a daily-limit 429 with a long Retry-After surfaces at once, with retryAfter', async () => {
    useFakeClock();
    const { handler, seen } = sequence('/subjects', [
      () => json({ message: 'daily limit' }, { status: 429, headers: { 'retry-after': '43200' } }),
    ]);
    server.use(handler);
    // No timer is advanced: the rejection comes without any wait.
    const error = await testClient()
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(43200);
    expect(seen).toHaveLength(1);
  });

  it('an abort during the wait ends it, and nothing more is sent', async () => {
    useFakeClock();
    const { handler, seen } = sequence('/subjects', [
      () => json({}, { status: 503, headers: { 'retry-after': '30' } }),
      ok,
    ]);
    server.use(handler);
    const controller = new AbortController();
    const outcome = testClient()
      .subjects.list({ signal: controller.signal })
      .catch((error: unknown) => error);
    const now = { at: 0 };
    expect(await sentBy(seen, 10_000, now)).toBe(1);
    controller.abort();
    expect(await outcome).toBeInstanceOf(RequestAbortedError);
    expect(await sentBy(seen, 60_000, now)).toBe(1);
  });
});

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

it('retries honour the per-request path (the same URL each time)', async () => {
  const { handler, seen } = sequence('/subjects', [fail(500), ok]);
  server.use(handler);
  await testClient().subjects.list();
  expect(seen.map((r) => r.url)).toEqual([`${BASE}/subjects`, `${BASE}/subjects`]);
});

it('http handler sanity: unhandled paths are errors, not network leaks', async () => {
  server.use(http.get(`${BASE}/other`, () => ok()));
  await expect(testClient({ maxRetries: 0 }).subjects.list()).rejects.toThrow();
});
