import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestAbortedError, TimeoutError } from '../../src/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { json, never } from '../reliability/fault-server.js';
import { recordingLogger, useRealServer } from '../support.js';

// A real socket: msw's interceptor cannot abort a body mid-stream without tripping undici.
const server = useRealServer();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];

/**
 * Every test runs on a fake clock (setTimeout alone; sockets stay real) that moves only when the test
 * says: a timeout strikes exactly where the test puts it, and a call that ends while the clock stands
 * still was ended by its abort, not by a timer. The server's own timers are fake too, so a stalled
 * body stays stalled.
 */
// p-retry's jitter at its least: a backoff is exactly its base.
beforeEach(() => useFakeClock({ date: false }));

// Taken before the clock is faked. (expect.poll would not do: it moves a fake clock as it polls.)
const realSetTimeout = globalThis.setTimeout;
/** How long the real socket may take to get somewhere: a hang guard, not a speed claim. */
const hangGuardMs = 15_000;

/** Resolves once `condition()` holds, polling on the real clock; fails if it never does. */
async function until(condition: () => boolean, what: string) {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > hangGuardMs)
      throw new Error(`${what}: still not so after ${hangGuardMs} ms`);
    await new Promise((resolve) => realSetTimeout(resolve, 5));
  }
}

/** Sends the headers and the first bytes at once, then stalls for `stallMs` before the rest. */
function slowBody(stallMs: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    const text = JSON.stringify(subjects);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(text.slice(0, 10));
    const timer = setTimeout(() => res.end(text.slice(10)), stallMs);
    res.on('close', () => clearTimeout(timer));
  };
}

/** A fetch that counts the requests sent and the responses whose headers came in. */
function counting(fetch: typeof globalThis.fetch = globalThis.fetch) {
  const counts = { sent: 0, answered: 0 };
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    counts.sent++;
    const response = await fetch(input, init);
    counts.answered++;
    return response;
  };
  return { counts, fetch: wrapped };
}

/** The call's outcome, and whether it is in yet. */
function track(call: Promise<unknown>) {
  const state = { settled: false, outcome: call.catch((error: unknown) => error) };
  state.outcome.finally(() => {
    state.settled = true;
  });
  return state;
}

/** A few turns of the event loop, for anything the clock set off to show itself. */
async function turns() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the clock to one millisecond short of `ms` (the call still running), then to `ms`. */
async function strikesAt(ms: number, call: { settled: boolean }) {
  await vi.advanceTimersByTimeAsync(ms - 1);
  await turns();
  expect(call.settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
}

describe('timeout', () => {
  it('covers the body read, not only the headers', async () => {
    server.serve(slowBody(3_000));
    const { counts, fetch } = counting();
    const call = track(server.client({ timeout: 200, maxRetries: 0, fetch }).subjects.list());
    await until(() => counts.answered === 1, 'headers in');
    await strikesAt(200, call);
    expect(await call.outcome).toBeInstanceOf(TimeoutError);
    expect(server.hits).toBe(1);
  });

  it('is per attempt, and a timed-out attempt is retried', async () => {
    server.serve(slowBody(3_000), json(subjects));
    const { counts, fetch } = counting();
    const call = track(server.client({ timeout: 200, fetch }).subjects.list());
    await until(() => counts.answered === 1, 'headers in');
    await strikesAt(200, call);
    // The backoff, then the second attempt, whose answer needs no timer.
    await vi.advanceTimersByTimeAsync(499);
    await turns();
    expect(counts.sent).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.outcome).toEqual(subjects);
    expect(server.hits).toBe(2);
  });

  it('per-request timeout overrides the client', async () => {
    server.serve(slowBody(3_000));
    const { counts, fetch } = counting();
    const call = track(
      server.client({ timeout: 60_000, fetch }).subjects.list({ timeout: 100, maxRetries: 0 }),
    );
    await until(() => counts.answered === 1, 'headers in');
    await strikesAt(100, call);
    expect(await call.outcome).toBeInstanceOf(TimeoutError);
  });
});

describe('abort, with the clock standing still', () => {
  it('an already-aborted signal sends nothing', async () => {
    server.serve(json(subjects));
    const error = await server
      .client()
      .subjects.list({ signal: AbortSignal.abort(new Error('stop')) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).cause).toEqual(new Error('stop'));
    expect(server.hits).toBe(0);
  });

  it('aborting while waiting for headers rejects at once', async () => {
    server.serve(never());
    const controller = new AbortController();
    const pending = server.client().subjects.list({ signal: controller.signal });
    await until(() => server.hits === 1, 'request in');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('aborting during the body read rejects at once', async () => {
    server.serve(slowBody(5_000));
    const { counts, fetch } = counting();
    const controller = new AbortController();
    const pending = server.client({ fetch }).subjects.list({ signal: controller.signal });
    await until(() => counts.answered === 1, 'headers in');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('aborting during a backoff sleep ends the sleep and sends nothing more', async () => {
    server.serve(json({}, 503, { 'retry-after': '30' }), json(subjects));
    const { counts, fetch } = counting();
    // The client says "retrying" just before it starts to wait.
    const { lines, logger } = recordingLogger();
    const retrying = () => lines.filter((line) => line.level === 'info');
    const controller = new AbortController();
    const pending = server
      .client({ fetch, logLevel: 'info', logger })
      .subjects.list({ signal: controller.signal });
    await until(() => retrying().length === 1, 'retrying');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await vi.advanceTimersByTimeAsync(60_000);
    await turns();
    expect(counts.sent).toBe(1);
    expect(server.hits).toBe(1);
  });

  it('a custom fetch that ignores the signal still cannot make a body read hang', async () => {
    const stalled = async () =>
      new Response(new ReadableStream({ start() {} }), { headers: { 'content-type': 'application/json' } });
    const { counts, fetch } = counting(stalled);
    const call = track(server.client({ fetch, timeout: 100, maxRetries: 0 }).subjects.list());
    await until(() => counts.answered === 1, 'headers in');
    await strikesAt(100, call);
    expect(await call.outcome).toBeInstanceOf(TimeoutError);
  });
});
