import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Deadline } from '../../src/core/abort.js';
import { countSdkTimers, useFakeClock } from './fake-clock.js';

describe('countSdkTimers', () => {
  it("counts the SDK's pending timers only, until they fire or are cleared", async () => {
    const real = globalThis.setTimeout;
    // Registered first, so run last: after both the counting and the clock are undone.
    onTestFinished(() => expect(globalThis.setTimeout).toBe(real));
    useFakeClock({ date: false });
    const timers = countSdkTimers();
    // A timer set outside src/, as a client an earlier file left behind would: on the clock, not counted.
    setTimeout(() => {}, 5_000);
    const cleared = new Deadline(1_000, undefined);
    const fired = new Deadline(2_000, undefined);
    expect(timers()).toBe(2);
    expect(vi.getTimerCount()).toBe(3);
    cleared.clear();
    expect(timers()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fired.timedOut).toBe(true);
    expect(timers()).toBe(0);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('counts under a folder of src/ alone when told, and tells where each pending timer was set', () => {
    useFakeClock({ date: false });
    const core = countSdkTimers('core/');
    const webhooks = countSdkTimers('webhooks/');
    const deadline = new Deadline(1_000, undefined);
    expect(core()).toBe(1);
    expect(core.stacks()).toEqual([expect.stringContaining('abort.ts')]);
    expect(webhooks()).toBe(0);
    deadline.clear();
    expect(core.stacks()).toEqual([]);
  });

  it('leaves the real timers in place when the test ends, whoever undoes the clock first', () => {
    const real = globalThis.setTimeout;
    onTestFinished(() => {
      expect(globalThis.setTimeout).toBe(real);
      expect(globalThis.clearInterval).not.toBe(undefined);
    });
    vi.useFakeTimers();
    countSdkTimers();
    vi.useRealTimers();
    expect(globalThis.setTimeout).toBe(real);
  });
});
