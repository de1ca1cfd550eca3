// When a retry goes out: the backoff, its jitter and the server's Retry-After, on fake timers.
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { InternalServerError, RateLimitError, RequestAbortedError } from '../../src/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { json, sequence, testClient, useMsw } from '../support.js';
import { fail, ok, subjects } from './retry-setup.js';

const server = useMsw();

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
