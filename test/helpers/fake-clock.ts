import { onTestFinished, vi } from 'vitest';

/** Where a fake clock with `Date` starts. */
export const clockStart = Date.parse('2026-01-01T00:00:00Z');

/**
 * A fake clock for the running test: `setTimeout` and `clearTimeout` (and `Date`, unless `date` is
 * false) move only when the test advances them, while sockets, `setImmediate` and a server's own
 * intervals stay real. p-retry's jitter is pinned at `random`: at 0, each backoff is exactly its base
 * (500 ms, 1 s, …). Undone when the test ends.
 */
export function useFakeClock({ random = 0, date = true }: { random?: number; date?: boolean } = {}): void {
  vi.useFakeTimers(
    date
      ? { toFake: ['setTimeout', 'clearTimeout', 'Date'], now: clockStart }
      : { toFake: ['setTimeout', 'clearTimeout'] },
  );
  vi.spyOn(Math, 'random').mockReturnValue(random);
  onTestFinished(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

/**
 * What `call` settles to (its value, or what it rejected with), the fake clock moved in 100 ms steps
 * with a real turn of the event loop between them. One jump can pass a timer the call has not yet
 * set: the path to it may wait on real I/O first (a module loaded on first use), and the call would
 * then never settle.
 */
export async function settleOnFakeClock<T>(call: Promise<T>): Promise<T | unknown> {
  let done = false;
  const outcome = call.then(
    (value) => value,
    (error: unknown) => error,
  );
  void outcome.finally(() => {
    done = true;
  });
  for (let step = 0; !done && step < 2_000; step++) {
    await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcome;
}
