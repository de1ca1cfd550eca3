// queries.follow reopening a stream the browser closed for good, on a fake clock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { follow } from '../../src/query/follow.js';
import { countSdkTimers } from '../helpers/fake-clock.js';
import { FakeEventSource, queryClient } from './follow-setup.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('follow', () => {
  it('reopens a stream the browser closed for good, after a doubling wait, until stop()', async () => {
    vi.useFakeTimers();
    // Each wait is drawn between half and all of it: here three quarters.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const timers = countSdkTimers();
    const sources: FakeEventSource[] = [];
    const stop = follow(queryClient, new URL('http://localhost/events'), async () => {}, {
      eventSource: (url) => {
        const source = new FakeEventSource(url);
        sources.push(source);
        return source;
      },
      reconnectMs: 100,
    });
    expect(sources.map((s) => s.url)).toEqual(['http://localhost/events']);
    // Still connecting: the browser's own reconnection is left alone.
    sources[0]!.fail(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sources).toHaveLength(1);
    sources[0]!.fail(2);
    await vi.advanceTimersByTimeAsync(74);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(2);
    sources[1]!.fail(2);
    await vi.advanceTimersByTimeAsync(149);
    expect(sources).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(3);
    // Opened: the wait starts over.
    sources[2]!.emit('open', {});
    sources[2]!.fail(2);
    await vi.advanceTimersByTimeAsync(75);
    expect(sources).toHaveLength(4);
    sources[3]!.fail(2);
    stop();
    expect(sources[3]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sources).toHaveLength(4);
    expect(timers()).toBe(0);
  });

  it('draws each wait between half and all of it, so that pages refused together come back apart', async () => {
    vi.useFakeTimers();
    const reopened: number[] = [];
    const random = vi.spyOn(Math, 'random');
    const stops = [0, 0.99].map((draw) => {
      random.mockReturnValue(draw);
      const sources: FakeEventSource[] = [];
      const stop = follow(queryClient, '/events', async () => {}, {
        eventSource: (url) => {
          if (sources.length > 0) reopened.push(Date.now());
          sources.push(new FakeEventSource(url));
          return sources.at(-1)!;
        },
        reconnectMs: 1_000,
      });
      // Refused for good at once (a full relay's 503), as every page was.
      sources[0]!.fail(2);
      return stop;
    });
    const started = Date.now();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reopened.map((at) => at - started)).toEqual([500, 995]);
    for (const stop of stops) stop();
  });

  it('calls missed once a stream it opened anew is open, never for the first', async () => {
    vi.useFakeTimers();
    const sources: FakeEventSource[] = [];
    let missed = 0;
    const stop = follow(queryClient, 'http://localhost/events', async () => {}, {
      eventSource: (url) => {
        const source = new FakeEventSource(url);
        sources.push(source);
        return source;
      },
      reconnectMs: 10,
      missed: () => void missed++,
    });
    sources[0]!.emit('open', {});
    expect(missed).toBe(0);
    sources[0]!.fail(2);
    await vi.advanceTimersByTimeAsync(10);
    expect(missed).toBe(0);
    sources[1]!.emit('open', {});
    expect(missed).toBe(1);
    // The browser's own reconnection of that stream asks with Last-Event-ID: the relay says if some are gone.
    sources[1]!.emit('open', {});
    expect(missed).toBe(1);
    sources[1]!.emit('missed', { data: 'events sent while you were away are no longer kept' });
    expect(missed).toBe(2);
    stop();
  });

  it('keeps trying when reopening throws', async () => {
    vi.useFakeTimers();
    const timers = countSdkTimers();
    let calls = 0;
    let first: FakeEventSource | undefined;
    const stop = follow(queryClient, '/events', async () => {}, {
      eventSource: (url) => {
        calls++;
        if (calls === 1) {
          first = new FakeEventSource(url);
          return first;
        }
        throw new Error('no network');
      },
      reconnectMs: 10,
    });
    first!.fail(2);
    await vi.advanceTimersByTimeAsync(10 + 20 + 40);
    expect(calls).toBe(4);
    stop();
    expect(timers()).toBe(0);
  });
});
