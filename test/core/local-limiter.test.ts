import { describe, expect, it, vi } from 'vitest';
import { LocalLimiter } from '../../src/core/local-limiter.js';
import { rejection } from '../helpers/calls.js';
import { clockStart, useFakeClock } from '../helpers/fake-clock.js';

/** Moves the fake clock to `ms` after its start, running every timer due on the way. */
const at = async (ms: number) => vi.advanceTimersByTimeAsync(ms - (Date.now() - clockStart));

/**
 * Requests through `limiter` that the test ends by hand: `starts` logs which one started when (ms
 * after the clock's start), `finish(name)` settles it.
 */
function requests(limiter: LocalLimiter) {
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

describe('maxRequestsPerMinute: an exact sliding window', () => {
  it('the (M+1)-th start waits until the oldest of the last M starts plus 60 s, not a millisecond less', async () => {
    useFakeClock();
    const { send, starts } = requests(new LocalLimiter({ maxRequestsPerMinute: 2 }));
    void send('a');
    await at(10_000);
    void send('b');
    void send('c');
    void send('d');
    await at(59_999);
    expect(starts).toEqual([
      { name: 'a', at: 0 },
      { name: 'b', at: 10_000 },
    ]);
    await at(60_000);
    expect(starts.at(-1)).toEqual({ name: 'c', at: 60_000 });
    await at(69_999);
    expect(starts).toHaveLength(3);
    await at(70_000);
    expect(starts.at(-1)).toEqual({ name: 'd', at: 70_000 });
  });

  it('never lets more than M start in any 60 s, whatever the arrivals', async () => {
    useFakeClock();
    const { send, starts } = requests(new LocalLimiter({ maxRequestsPerMinute: 3 }));
    for (const [time, count] of [
      [0, 2],
      [20_000, 3],
      [45_000, 4],
      [130_000, 5],
    ] as const) {
      await at(time);
      for (let i = 0; i < count; i++) void send(`${time}-${i}`);
    }
    await at(400_000);
    const times = starts.map((start) => start.at);
    expect(times).toHaveLength(14);
    for (const from of times) {
      expect(times.filter((t) => t >= from && t < from + 60_000).length).toBeLessThanOrEqual(3);
    }
    // Each start comes as soon as the window allows it: the (k+3)-th is exactly 60 s after the k-th.
    expect(times.slice(0, 6)).toEqual([0, 0, 20_000, 60_000, 60_000, 80_000]);
  });
});

describe('maxConcurrency', () => {
  it('holds at most N in flight, and starts the next one when one ends', async () => {
    useFakeClock();
    const { send, finish, names } = requests(new LocalLimiter({ maxConcurrency: 2 }));
    const calls = ['a', 'b', 'c', 'd'].map((name) => send(name));
    await at(1_000);
    expect(names()).toEqual(['a', 'b']);
    await finish('b');
    expect(names()).toEqual(['a', 'b', 'c']);
    await finish('a');
    await finish('c');
    await finish('d');
    expect(await Promise.all(calls)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a request that fails, or throws as it starts, gives its place back', async () => {
    const limiter = new LocalLimiter({ maxConcurrency: 1 });
    const failure = new Error('refused');
    expect(await rejection(limiter.run(() => Promise.reject(failure)))).toBe(failure);
    const thrown = new Error('thrown');
    const throwing = () => {
      throw thrown;
    };
    expect(await rejection(limiter.run(throwing))).toBe(thrown);
    // Started at once: the place is free.
    const next = vi.fn(async () => 'next');
    const call = limiter.run(next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(await call).toBe('next');
  });
});

describe('order', () => {
  it('waiting requests start in the order they came', async () => {
    useFakeClock();
    const { send, finish, names } = requests(
      new LocalLimiter({ maxConcurrency: 1, maxRequestsPerMinute: 3 }),
    );
    for (const name of ['a', 'b', 'c', 'd', 'e']) void send(name);
    for (const name of ['a', 'b', 'c']) await finish(name);
    expect(names()).toEqual(['a', 'b', 'c']);
    // A later arrival waits behind those already waiting, even once the window opens.
    await at(30_000);
    void send('f');
    await at(60_000);
    await finish('d');
    await finish('e');
    expect(names()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});

describe('a waiting request whose signal aborts', () => {
  it('rejects at once with the reason, is never sent, and holds no place', async () => {
    useFakeClock();
    const { send, finish, names } = requests(new LocalLimiter({ maxConcurrency: 1 }));
    void send('a');
    const controller = new AbortController();
    const waiting = send('b', controller.signal);
    void send('c');
    let settled = false;
    const outcome = rejection(waiting).finally(() => {
      settled = true;
    });
    const reason = new Error('user gave up');
    controller.abort(reason);
    for (let i = 0; i < 20 && !settled; i++) await Promise.resolve();
    expect(settled).toBe(true);
    expect(await outcome).toBe(reason);
    await finish('a');
    expect(names()).toEqual(['a', 'c']);
  });

  it('behind the window: leaves no timer behind when it was the last one waiting', async () => {
    useFakeClock();
    const { send, starts } = requests(new LocalLimiter({ maxRequestsPerMinute: 1 }));
    void send('a');
    const controller = new AbortController();
    const waiting = send('b', controller.signal);
    await at(1_000);
    expect(vi.getTimerCount()).toBe(1);
    const reason = new Error('gone');
    controller.abort(reason);
    expect(await rejection(waiting)).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    await at(120_000);
    expect(starts.map((start) => start.name)).toEqual(['a']);
  });

  it('already aborted: rejects without being sent', async () => {
    const limiter = new LocalLimiter({ maxConcurrency: 1 });
    const send = vi.fn(async () => 'sent');
    const reason = new Error('before');
    expect(await rejection(limiter.run(send, { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(send).not.toHaveBeenCalled();
  });
});

describe('pause', () => {
  it('with no limit set, a request goes straight through, and one during a pause waits it out', async () => {
    useFakeClock();
    const limiter = new LocalLimiter();
    const send = vi.fn(async () => 'sent');
    void limiter.run(send);
    expect(send).toHaveBeenCalledTimes(1);
    const { send: request, starts } = requests(limiter);
    limiter.pause(2_000);
    void request('held');
    await at(1_999);
    expect(starts).toEqual([]);
    await at(2_000);
    expect(starts).toEqual([{ name: 'held', at: 2_000 }]);
    // Over, the pause lets the next request through at once.
    void request('after');
    expect(starts.at(-1)).toEqual({ name: 'after', at: 2_000 });
  });

  it('a longer pause extends it; a shorter one changes nothing', async () => {
    useFakeClock();
    const limiter = new LocalLimiter({ maxConcurrency: 4 });
    const { send, starts } = requests(limiter);
    limiter.pause(1_000);
    void send('a');
    await at(500);
    limiter.pause(2_000);
    void send('b');
    await at(1_000);
    limiter.pause(100);
    // A request arriving after the shorter pause would have ended waits like the others.
    await at(1_500);
    void send('c');
    await at(2_499);
    expect(starts).toEqual([]);
    await at(2_500);
    expect(starts).toEqual([
      { name: 'a', at: 2_500 },
      { name: 'b', at: 2_500 },
      { name: 'c', at: 2_500 },
    ]);
  });

  it('holds the requests waiting for a place, not those in flight', async () => {
    useFakeClock();
    const limiter = new LocalLimiter({ maxConcurrency: 1 });
    const { send, finish, names, starts } = requests(limiter);
    const first = send('a');
    void send('b');
    limiter.pause(3_000);
    await finish('a');
    expect(await first).toBe('a');
    await at(2_999);
    expect(names()).toEqual(['a']);
    await at(3_000);
    expect(starts.at(-1)).toEqual({ name: 'b', at: 3_000 });
  });
});
