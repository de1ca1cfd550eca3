// The bound of the command line's last OTLP export, with fake timers: a flush that never ends is cut.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundedFlush, flushBoundMs, interruptedFlushMs } from '../../src/cli/telemetry.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the bound of the last export', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is at most 2 s, and half a second once Ctrl-C is pressed', () => {
    expect(flushBoundMs).toBeLessThanOrEqual(2_000);
    expect(interruptedFlushMs).toBeLessThan(1_000);
  });

  /** A flush that never settles, its cut counted, and the outcome once there is one. */
  function stuck(signal = new AbortController().signal) {
    vi.useFakeTimers();
    const cut = vi.fn();
    let outcome: string | undefined;
    void boundedFlush(new Promise(() => {}), cut, signal).then((value) => {
      outcome = value;
    });
    return { cut, outcome: () => outcome };
  }

  it('a flush that never ends is cut at the bound, not a moment before', async () => {
    const flush = stuck();
    await vi.advanceTimersByTimeAsync(flushBoundMs - 1);
    expect(flush.cut).not.toHaveBeenCalled();
    expect(flush.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(flush.cut).toHaveBeenCalledTimes(1);
    expect(flush.outcome()).toBe('cut');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('Ctrl-C during the flush: cut half a second later', async () => {
    const controller = new AbortController();
    const flush = stuck(controller.signal);
    await vi.advanceTimersByTimeAsync(300);
    controller.abort();
    await vi.advanceTimersByTimeAsync(interruptedFlushMs - 1);
    expect(flush.cut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(flush.cut).toHaveBeenCalledTimes(1);
    expect(flush.outcome()).toBe('cut');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('Ctrl-C before it, or late in it: the earlier bound holds', async () => {
    const before = new AbortController();
    before.abort();
    const early = stuck(before.signal);
    await vi.advanceTimersByTimeAsync(interruptedFlushMs);
    expect(early.cut).toHaveBeenCalledTimes(1);
    const late = new AbortController();
    const flush = stuck(late.signal);
    await vi.advanceTimersByTimeAsync(flushBoundMs - 100);
    late.abort();
    await vi.advanceTimersByTimeAsync(100);
    expect(flush.cut).toHaveBeenCalledTimes(1);
  });

  it('a flush that ends in time is not cut, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const cut = vi.fn();
    const flushed = boundedFlush(
      sleep(100).then(() => Promise.reject(new Error('export failed'))),
      cut,
      new AbortController().signal,
    );
    await vi.advanceTimersByTimeAsync(100);
    await expect(flushed).resolves.toBe('flushed');
    expect(cut).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
