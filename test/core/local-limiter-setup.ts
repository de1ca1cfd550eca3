// What the LocalLimiter tests share: a fake clock to move by hand, and requests that log when they start.
import { expect, vi } from 'vitest';
import type { LocalLimiter } from '../../src/core/local-limiter.js';
import { clockStart } from '../helpers/fake-clock.js';

/** Moves the fake clock to `ms` after its start, running every timer due on the way. */
export const at = async (ms: number) => vi.advanceTimersByTimeAsync(ms - (Date.now() - clockStart));

type Starts = ReadonlyArray<{ name: string; at: number }>;

/** `name` starts at `ms` and not a millisecond earlier: nothing more had started at `ms - 1`. */
export async function startsAt(starts: Starts, name: string, ms: number): Promise<void> {
  const before = starts.length;
  await at(ms - 1);
  expect(starts).toHaveLength(before);
  await at(ms);
  expect(starts.at(-1)).toEqual({ name, at: ms });
}

/**
 * Requests through `limiter` that the test ends by hand: `starts` logs which one started when (ms
 * after the clock's start), `finish(name)` settles it.
 */
export function requests(limiter: LocalLimiter) {
  const starts: Array<{ name: string; at: number }> = [];
  const open = new Map<string, () => void>();
  const send = (name: string, signal?: AbortSignal) =>
    limiter.run(
      () =>
        new Promise<string>((resolve) => {
          starts.push({ name, at: Date.now() - clockStart });
          open.set(name, () => resolve(name));
        }),
      { signal },
    );
  const finish = async (name: string) => {
    open.get(name)?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  const names = () => starts.map((start) => start.name);
  return { send, finish, starts, names };
}

/** Requests answered `answerMs` after they start; `starts` logs when each started. */
export function answered(limiter: LocalLimiter, answerMs: number) {
  const starts: Array<{ name: string; at: number }> = [];
  const send = (name: string) =>
    limiter.run(() => {
      starts.push({ name, at: Date.now() - clockStart });
      return new Promise<string>((resolve) => setTimeout(() => resolve(name), answerMs));
    });
  return { send, starts };
}
