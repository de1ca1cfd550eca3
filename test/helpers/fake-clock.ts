import { fileURLToPath } from 'node:url';
import { type FakeTimersConfig, onTestFinished, vi } from 'vitest';

/** Where a fake clock with `Date` starts. */
export const clockStart = Date.parse('2026-01-01T00:00:00Z');

/**
 * A fake clock for the running test: `setTimeout` and `clearTimeout` (and `Date`, unless `date` is
 * false; intervals too with `intervals`, for a test that starts no server) move only when the test
 * advances them, while sockets, `setImmediate` and a server's own intervals stay real. p-retry's
 * jitter is pinned at `random`: at 0, each backoff is exactly its base (500 ms, 1 s, …). Undone when
 * the test ends.
 */
export function useFakeClock({
  random = 0,
  date = true,
  intervals = false,
}: {
  random?: number;
  date?: boolean;
  intervals?: boolean;
} = {}): void {
  const toFake: NonNullable<FakeTimersConfig['toFake']> = ['setTimeout', 'clearTimeout'];
  if (intervals) toFake.push('setInterval', 'clearInterval');
  vi.useFakeTimers(date ? { toFake: [...toFake, 'Date'], now: clockStart } : { toFake });
  vi.spyOn(Math, 'random').mockReturnValue(random);
  onTestFinished(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

/** How long, in real time, a call may wait for I/O on a fake clock: a hang guard, not a speed claim. */
const settleGuardMs = 60_000;

/**
 * What `call` settles to (its value, or what it rejected with), the fake clock moved in 100 ms steps
 * with a real turn of the event loop between them, and only while a timer waits for it. One jump can
 * pass a timer the call has not yet set: the path to it may wait on real I/O first (a module loaded on
 * first use, which takes longer on a cold or loaded worker), and that wait gets real turns, as many as
 * it takes, not a count of steps that could run out before the timer is set.
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
  for (const started = performance.now(); !done; ) {
    if (performance.now() - started > settleGuardMs)
      throw new Error('the call did not settle on the fake clock');
    if (vi.getTimerCount() > 0) await vi.advanceTimersByTimeAsync(100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcome;
}

/**
 * Waits, in real turns of the event loop, until `count()` (a `countSdkTimers`) reaches `atLeast`: a
 * test that moves the clock by an exact amount must not move it before the timer it measures is set.
 */
export async function untilTimersSet(count: () => number, atLeast = 1): Promise<void> {
  for (const started = performance.now(); count() < atLeast; ) {
    if (performance.now() - started > settleGuardMs) throw new Error('the awaited timer was never set');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Counts the timers the SDK's own code (a file under src/, or under `under`, a folder of it) set on
 * the fake clock and that have neither fired nor been cleared; an interval counts until cleared.
 * `vi.getTimerCount()` counts every fake timer in the worker, and the `node` project's files share
 * workers: a client an earlier file left reconnecting sets timers of its own on the same clock, which
 * a narrower `under` keeps out. `stacks()` tells where each pending timer was set, for a failure's
 * message. Call it after faking the timers.
 */
export function countSdkTimers(under = ''): { (): number; stacks(): string[] } {
  const folder = sourceFolder + under;
  const pending = new Map<unknown, string>();
  const fake = {
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    clearTimeout: globalThis.clearTimeout,
    clearInterval: globalThis.clearInterval,
  };
  const start =
    (kind: 'setTimeout' | 'setInterval') =>
    (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
      const stack = new Error().stack ?? '';
      if (!stack.includes(folder)) return fake[kind](callback, delay, ...args);
      const timer = fake[kind](
        (...values: unknown[]) => {
          if (kind === 'setTimeout') pending.delete(timer);
          callback(...values);
        },
        delay,
        ...args,
      );
      pending.set(timer, stack.split('\n').slice(2, 6).join('\n'));
      return timer;
    };
  const clear = (kind: 'clearTimeout' | 'clearInterval') => (timer?: NodeJS.Timeout) => {
    pending.delete(timer);
    fake[kind](timer);
  };
  const counting = {
    setTimeout: start('setTimeout'),
    setInterval: start('setInterval'),
    clearTimeout: clear('clearTimeout'),
    clearInterval: clear('clearInterval'),
  };
  Object.assign(globalThis, counting);
  onTestFinished(() => {
    // Put back only what is still ours: when the real timers are back already, they stay.
    for (const name of Object.keys(counting) as Array<keyof typeof counting>) {
      if (globalThis[name] === (counting[name] as unknown)) Object.assign(globalThis, { [name]: fake[name] });
    }
  });
  return Object.assign(() => pending.size, { stacks: () => [...pending.values()] });
}

const sourceFolder = fileURLToPath(new URL('../../src/', import.meta.url));
