// LocalLimiter's waiting requests that leave the queue early (their signal aborts), and its pauses.
import { describe, expect, it, vi } from 'vitest';
import { LocalLimiter } from '../../src/core/local-limiter.js';
import { rejection } from '../helpers/calls.js';
import { countSdkTimers, useFakeClock } from '../helpers/fake-clock.js';
import { at, requests } from './local-limiter-setup.js';

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
    const timers = countSdkTimers();
    const { send, starts, finish } = requests(new LocalLimiter({ maxRequestsPerMinute: 1 }));
    void send('a');
    await finish('a');
    const controller = new AbortController();
    const waiting = send('b', controller.signal);
    await at(1_000);
    expect(timers()).toBe(1);
    const reason = new Error('gone');
    controller.abort(reason);
    expect(await rejection(waiting)).toBe(reason);
    expect(timers()).toBe(0);
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
