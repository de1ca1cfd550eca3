import { expect } from 'vitest';

/**
 * Asserts that `starts` (ms on the epoch clock) keep `pacing: 'even'`: the quota grants start k no
 * earlier than k spacings after the first, which came no earlier than `asked`, and a timer never fires
 * before its time, so the k-th start in time order comes at least k spacings after `asked`. A loaded
 * machine only makes starts later, so this holds under any load; a burst, or a shorter spacing, breaks
 * it at once. The tolerance covers timers rounded to the millisecond.
 */
export function expectPaced(starts: readonly number[], asked: number, spacingMs: number): void {
  const early = [...starts]
    .sort((a, b) => a - b)
    .map((start, k) => ({ k, afterAsked: Math.round(start - asked), atLeast: k * spacingMs - 2 }))
    .filter(({ afterAsked, atLeast }) => afterAsked < atLeast);
  expect(early, `starts earlier than k × ${spacingMs} ms after the first ask`).toEqual([]);
}
