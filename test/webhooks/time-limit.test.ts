import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timeLimit } from '../../src/webhooks/time-limit.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A promise settled by hand. */
function pending<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe('timeLimit', () => {
  it('settles as the work does when it finishes in time, and a cleared limit never calls late', async () => {
    const late = vi.fn(() => 'late');
    const limit = timeLimit(100, late);
    const work = pending<string>();
    const raced = limit.race(work.promise);
    await vi.advanceTimersByTimeAsync(99);
    work.resolve('done');
    await expect(raced).resolves.toBe('done');
    limit.clear();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(late).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the work's rejection on", async () => {
    const limit = timeLimit(100, () => 'late');
    await expect(limit.race(Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    limit.clear();
  });

  it("ends with late()'s value once the time is up, the work still pending", async () => {
    const limit = timeLimit(100, () => 'late');
    const raced = limit.race(pending<string>().promise);
    await vi.advanceTimersByTimeAsync(100);
    await expect(raced).resolves.toBe('late');
  });

  it('rejects with what late() throws, for every race of the limit: one timer bounds them all', async () => {
    const limit = timeLimit(100, () => {
      throw new Error('too slow');
    });
    const first = limit.race(pending<never>().promise);
    await vi.advanceTimersByTimeAsync(60);
    const second = limit.race(pending<never>().promise);
    const [a, b] = [expect(first).rejects.toThrow('too slow'), expect(second).rejects.toThrow('too slow')];
    await vi.advanceTimersByTimeAsync(40);
    await Promise.all([a, b]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('calls late() for a race alone: a limit that runs out with nothing raced leaves no rejection', async () => {
    const late = vi.fn(() => {
      throw new Error('too slow');
    });
    const limit = timeLimit(100, late);
    await vi.advanceTimersByTimeAsync(100);
    expect(late).not.toHaveBeenCalled();
    await expect(limit.race(pending<never>().promise)).rejects.toThrow('too slow');
    expect(late).toHaveBeenCalledOnce();
  });

  it('accepts work that is not a promise', async () => {
    const limit = timeLimit(100, () => 'late');
    await expect(limit.race(7)).resolves.toBe(7);
    limit.clear();
  });
});
