import { describe, expect, it, vi } from 'vitest';
import { LocalLimiter } from '../../src/core/local-limiter.js';
import { rejection } from '../helpers/calls.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { answered, at, requests, startsAt } from './local-limiter-setup.js';

describe('maxRequestsPerMinute: an exact sliding window', () => {
  it('the (M+1)-th start waits until the oldest of the last M answers plus 60 s, not a millisecond less', async () => {
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 2 }), 500);
    void send('a');
    await at(10_000);
    void send('b');
    void send('c');
    void send('d');
    await at(60_499);
    expect(starts).toEqual([
      { name: 'a', at: 0 },
      { name: 'b', at: 10_000 },
    ]);
    await startsAt(starts, 'c', 60_500);
    await startsAt(starts, 'd', 70_500);
  });

  it('counts a start from its answer: at an exact limit the 21st waits for the 1st answer plus 60 s', async () => {
    // The server counts a request when it arrives, after the limiter let it go: a window timed from
    // the start opens before the server's (a 429 was seen at 59.98 s), one timed from the answer does not.
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 20 }), 300);
    for (let i = 0; i < 21; i++) void send(`r${i}`);
    await at(60_299);
    expect(starts).toHaveLength(20);
    await startsAt(starts, 'r20', 60_300);
  });

  it('answers in another order than their starts: the earliest answer opens the window', async () => {
    useFakeClock();
    const { send, finish, starts } = requests(new LocalLimiter({ maxRequestsPerMinute: 2 }));
    void send('a');
    void send('b');
    await at(5_000);
    await finish('b');
    await at(20_000);
    await finish('a');
    void send('c');
    void send('d');
    expect(starts).toHaveLength(2);
    await startsAt(starts, 'c', 65_000);
    await startsAt(starts, 'd', 80_000);
  });

  it('while every counted start is in flight, the next waits for an answer, however long', async () => {
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 1 }), 90_000);
    void send('a');
    void send('b');
    expect(starts).toHaveLength(1);
    await startsAt(starts, 'b', 150_000);
  });

  it('never lets more than M start in any 60 s, whatever the arrivals', async () => {
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 3 }), 0);
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

describe("pacing: 'even'", () => {
  it('spaces starts 60 s ÷ maxRequestsPerMinute apart, and the window still holds', async () => {
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 4, pacing: 'even' }), 1_000);
    for (let i = 0; i < 6; i++) void send(`r${i}`);
    await at(200_000);
    // The 5th: 60 s after the 1st, and a spacing after the 4th; its window opens at the 1st answer + 60 s.
    expect(starts.map((start) => start.at)).toEqual([0, 15_000, 30_000, 45_000, 61_000, 76_000]);
  });

  it("'burst' (the default) starts what the window allows at once", async () => {
    useFakeClock();
    const { send, starts } = answered(new LocalLimiter({ maxRequestsPerMinute: 4, pacing: 'burst' }), 0);
    for (let i = 0; i < 4; i++) void send(`r${i}`);
    await at(1);
    expect(starts.map((start) => start.at)).toEqual([0, 0, 0, 0]);
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
