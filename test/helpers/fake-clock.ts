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
