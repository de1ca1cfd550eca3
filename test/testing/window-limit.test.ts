import { describe, expect, it } from 'vitest';
import { MOCK_API_KEY, MOCK_ELITE_API_KEY, type MockLimits } from '../../src/testing/index.js';
import { get, smallApi } from './helpers.js';

/** A mock on a clock the test moves by hand: no test here waits for wall time. */
function clocked(limits: MockLimits, start = Date.parse('2025-03-01T12:00:15.900Z')) {
  const clock = { now: start };
  const api = smallApi({ limits, now: () => clock.now });
  return { api, clock };
}

async function statuses(api: ReturnType<typeof smallApi>, count: number, key = MOCK_API_KEY) {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await get(api, '/subjects', key)).status);
  return result;
}

describe('limits.perWindow (a short window, for fast 429 tests)', () => {
  it('refuses the request past the limit with Retry-After from the window, until it ends', async () => {
    const { api, clock } = clocked({ perWindow: { requests: 5, windowMs: 2_000 } });
    expect(await statuses(api, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await get(api, '/subjects');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body).toEqual({
      error: 'rate_limited',
      message: 'Limit of 5 requests per 2000 ms exceeded; retry in 2 s',
    });
    clock.now += 1_500;
    expect((await get(api, '/subjects')).headers.get('retry-after')).toBe('1'); // 500 ms, rounded up
    clock.now += 499;
    expect((await get(api, '/subjects')).headers.get('retry-after')).toBe('1'); // 1 ms left: still ≥ 1
    clock.now += 1;
    expect(await statuses(api, 5)).toEqual([200, 200, 200, 200, 200]);
    expect((await get(api, '/subjects')).status).toBe(429);
  });

  it('opens a window at the first request, not on a clock boundary', async () => {
    // 12:00:15.900: a window aligned to multiples of 2 s would end 100 ms later and let a burst through.
    const { api, clock } = clocked({ perWindow: { requests: 2, windowMs: 2_000 } });
    expect(await statuses(api, 1)).toEqual([200]);
    clock.now += 200;
    expect(await statuses(api, 2)).toEqual([200, 429]);
    clock.now += 1_799; // 1 ms before the window opened by the first request ends
    expect(await statuses(api, 1)).toEqual([429]);
    clock.now += 1;
    expect(await statuses(api, 2)).toEqual([200, 200]);
  });

  it('rounds Retry-After up to whole seconds, and never says 0', async () => {
    for (const [windowMs, expected] of [
      [2_500, '3'],
      [300, '1'],
      [1, '1'],
      [60_000, '60'],
    ] as const) {
      const { api } = clocked({ perWindow: { requests: 1, windowMs } });
      await get(api, '/subjects');
      expect((await get(api, '/subjects')).headers.get('retry-after'), `windowMs ${windowMs}`).toBe(expected);
    }
  });

  it('does not count refused requests, so hammering does not stretch the window', async () => {
    const { api, clock } = clocked({ perWindow: { requests: 2, windowMs: 1_000 } });
    expect(await statuses(api, 2)).toEqual([200, 200]);
    for (let i = 0; i < 9; i++) {
      clock.now += 100;
      expect((await get(api, '/subjects')).status).toBe(429);
    }
    clock.now += 100;
    expect(await statuses(api, 3)).toEqual([200, 200, 429]);
  });

  it('counts per key, and reset() forgets the counts', async () => {
    const { api } = clocked({ perWindow: { requests: 1, windowMs: 5_000 } });
    expect(await statuses(api, 2, MOCK_API_KEY)).toEqual([200, 429]);
    expect(await statuses(api, 2, MOCK_ELITE_API_KEY)).toEqual([200, 429]);
    api.reset();
    expect(await statuses(api, 1, MOCK_API_KEY)).toEqual([200]);
  });

  it('refuses everything with requests: 0, asking to wait one window', async () => {
    const { api } = clocked({ perWindow: { requests: 0, windowMs: 3_000 } });
    const limited = await get(api, '/subjects');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
  });

  it('restarts the window when the clock is set back before it', async () => {
    const { api, clock } = clocked({ perWindow: { requests: 1, windowMs: 10_000 } });
    expect(await statuses(api, 2)).toEqual([200, 429]);
    clock.now -= 60_000;
    expect(await statuses(api, 2)).toEqual([200, 429]);
  });
});

describe('limits combined', () => {
  it('applies every limit set; Retry-After is that of the limit ending last', async () => {
    const { api, clock } = clocked(
      { perMinute: 2, perWindow: { requests: 2, windowMs: 120_000 } },
      Date.parse('2025-03-01T12:00:15Z'),
    );
    expect(await statuses(api, 2)).toEqual([200, 200]);
    const both = await get(api, '/subjects');
    expect(both.headers.get('retry-after')).toBe('120'); // not the minute's 45: that would meet a 429
    expect(both.body).toMatchObject({ message: expect.stringContaining('per 120000 ms') });
    clock.now += 45_000; // a new clock minute; the 2-minute window still blocks
    expect((await get(api, '/subjects')).headers.get('retry-after')).toBe('75');
    clock.now += 75_000;
    expect(await statuses(api, 3)).toEqual([200, 200, 429]);
  });

  it('lets a short window refuse inside a generous minute, and a minute refuse inside a window', async () => {
    const short = clocked({ perMinute: 100, perWindow: { requests: 3, windowMs: 1_000 } });
    expect(await statuses(short.api, 4)).toEqual([200, 200, 200, 429]);
    expect((await get(short.api, '/subjects')).body).toMatchObject({
      message: expect.stringContaining('per 1000 ms'),
    });
    const minute = clocked({ perMinute: 3, perWindow: { requests: 100, windowMs: 1_000 } });
    expect(await statuses(minute.api, 4)).toEqual([200, 200, 200, 429]);
    expect((await get(minute.api, '/subjects')).body).toMatchObject({
      message: expect.stringContaining('Per-minute'),
    });
  });

  it('refuses nonsense windows, naming the option', () => {
    const bad = (perWindow: unknown) => () => smallApi({ limits: { perWindow } as unknown as MockLimits });
    expect(bad({ requests: -1, windowMs: 1_000 })).toThrow(/limits\.perWindow\.requests/);
    expect(bad({ requests: 1.5, windowMs: 1_000 })).toThrow(/limits\.perWindow\.requests/);
    expect(bad({ requests: 5, windowMs: 0 })).toThrow(/limits\.perWindow\.windowMs/);
    expect(bad({ requests: 5, windowMs: Number.NaN })).toThrow(/limits\.perWindow\.windowMs/);
    expect(bad({ requests: 5 })).toThrow(/limits\.perWindow\.windowMs/);
  });
});
