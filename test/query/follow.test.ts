import type { ServerResponse } from 'node:http';
import { EventSource } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { type EventSourceLike, follow } from '../../src/query/follow.js';
import {
  createEventRelay,
  type EventRelayOptions,
  type ScoreUpdatedEvent,
} from '../../src/webhooks/index.js';
import { countSdkTimers } from '../helpers/fake-clock.js';
import { validEvent } from '../webhooks/fixtures.js';
import { startServer } from '../webhooks/node-server.js';
import { nodeListener } from '../webhooks/relay-client.js';

const queryClient = { name: 'a QueryClient' };
const realEventSource = (url: string) => new EventSource(url) as unknown as EventSourceLike;

/** The relay on 127.0.0.1, and `/raw`: a stream that sends `lines` as they are, then stays open. */
async function serve(lines = '', relayOptions?: EventRelayOptions) {
  const relay = createEventRelay(relayOptions);
  const toRelay = nodeListener(relay);
  const raw = new Set<ServerResponse>();
  const streams = new Set<ServerResponse>();
  const server = await startServer((req, res) => {
    if (!req.url?.startsWith('/raw')) {
      streams.add(res);
      return toRelay(req, res);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(lines);
    raw.add(res);
  });
  return {
    relay,
    url: server.url,
    rawUrl: new URL('/raw', server.url).href,
    /** Cuts every relay connection, as a restarting proxy would. */
    cut: () => {
      for (const res of streams) res.destroy();
      streams.clear();
    },
    close: async () => {
      relay.close();
      for (const res of raw) res.end();
      await server.close();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('follow', () => {
  it('calls invalidate with each event the relay publishes, and stop() closes the stream', async () => {
    const served = await serve();
    const seen: ScoreUpdatedEvent[] = [];
    try {
      const stop = follow(
        queryClient,
        served.url,
        async (qc, event) => {
          expect(qc).toBe(queryClient);
          seen.push(event);
        },
        { eventSource: realEventSource },
      );
      await vi.waitFor(() => expect(served.relay.clients).toBe(1), { timeout: 10_000 });
      served.relay.publish(validEvent);
      await vi.waitFor(() => expect(seen).toEqual([validEvent]), { timeout: 10_000 });
      stop();
      await vi.waitFor(() => expect(served.relay.clients).toBe(0), { timeout: 10_000 });
      expect(served.relay.publish({ ...validEvent, journal_id: 8 })).toBe(0);
      expect(seen).toHaveLength(1);
    } finally {
      await served.close();
    }
  });

  it('gets what it missed while disconnected: the EventSource reconnects with Last-Event-ID', async () => {
    const served = await serve();
    const seen: number[] = [];
    try {
      const stop = follow(
        queryClient,
        served.url,
        async (_qc, event) => {
          seen.push(event.journal_id);
        },
        { eventSource: realEventSource },
      );
      await vi.waitFor(() => expect(served.relay.clients).toBe(1), { timeout: 10_000 });
      served.relay.publish({ ...validEvent, journal_id: 1 });
      await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 10_000 });
      served.cut();
      await vi.waitFor(() => expect(served.relay.clients).toBe(0), { timeout: 10_000 });
      expect(served.relay.publish({ ...validEvent, journal_id: 2 })).toBe(0);
      // The EventSource's own reconnection (about 3 s), then the replay.
      await vi.waitFor(() => expect(seen).toEqual([1, 2]), { timeout: 30_000 });
      stop();
    } finally {
      await served.close();
    }
  }, 60_000);

  it('gets what was published while disconnected before any event reached it', async () => {
    const served = await serve();
    const seen: number[] = [];
    let missed = 0;
    try {
      const stop = follow(queryClient, served.url, async (_qc, event) => void seen.push(event.journal_id), {
        eventSource: realEventSource,
        missed: () => void missed++,
      });
      await vi.waitFor(() => expect(served.relay.clients).toBe(1), { timeout: 10_000 });
      served.cut();
      await vi.waitFor(() => expect(served.relay.clients).toBe(0), { timeout: 10_000 });
      expect(served.relay.publish({ ...validEvent, journal_id: 5 })).toBe(0);
      // The EventSource's own reconnection (about 3 s), with the id its greeting gave it.
      await vi.waitFor(() => expect(seen).toEqual([5]), { timeout: 30_000 });
      expect(missed).toBe(0);
      stop();
    } finally {
      await served.close();
    }
  }, 60_000);

  it('calls missed when the relay no longer has what it missed while disconnected', async () => {
    const served = await serve('', { replayEvents: 1 });
    const seen: number[] = [];
    let missed = 0;
    try {
      const stop = follow(queryClient, served.url, async (_qc, event) => void seen.push(event.journal_id), {
        eventSource: realEventSource,
        missed: () => {
          missed++;
          throw new Error('a refetch that fails is ignored');
        },
      });
      await vi.waitFor(() => expect(served.relay.clients).toBe(1), { timeout: 10_000 });
      served.relay.publish({ ...validEvent, journal_id: 1 });
      await vi.waitFor(() => expect(seen).toEqual([1]), { timeout: 10_000 });
      served.cut();
      await vi.waitFor(() => expect(served.relay.clients).toBe(0), { timeout: 10_000 });
      // Two events while away, and the relay keeps one: journal 2 is gone.
      served.relay.publish({ ...validEvent, journal_id: 2 });
      served.relay.publish({ ...validEvent, journal_id: 3 });
      await vi.waitFor(() => expect(missed).toBe(1), { timeout: 30_000 });
      expect(seen).toEqual([1]);
      served.relay.publish({ ...validEvent, journal_id: 4 });
      await vi.waitFor(() => expect(seen).toEqual([1, 4]), { timeout: 10_000 });
      stop();
    } finally {
      await served.close();
    }
  }, 60_000);

  it('ignores messages that are not valid events, and a failing invalidate', async () => {
    const valid = JSON.stringify({ ...validEvent, journal_id: 9 });
    const hostile = JSON.stringify({ ...validEvent, journal_id: '7' });
    const served = await serve(`data: not json\n\ndata: ${hostile}\n\n: a comment\n\ndata: ${valid}\n\n`);
    const seen: number[] = [];
    try {
      const stop = follow(
        queryClient,
        served.rawUrl,
        (_qc, event) => {
          seen.push(event.journal_id);
          // A rejection here must go nowhere (vitest fails the run on an unhandled one).
          return Promise.reject(new Error('refetch failed'));
        },
        { eventSource: realEventSource },
      );
      await vi.waitFor(() => expect(seen).toEqual([9]), { timeout: 10_000 });
      stop();
    } finally {
      await served.close();
    }
  });

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

  it('says so when the runtime has no EventSource, and checks its options', () => {
    vi.stubGlobal('EventSource', undefined);
    try {
      expect(() => follow(queryClient, '/events', async () => {})).toThrow(ConfigurationError);
      expect(() => follow(queryClient, '/events', async () => {})).toThrow('no EventSource: pass one');
    } finally {
      vi.unstubAllGlobals();
    }
    const eventSource = (url: string) => new FakeEventSource(url);
    expect(() => follow(queryClient, '/e', async () => {}, { eventSource, reconnectMs: 0 })).toThrow(
      '`reconnectMs` must be an integer',
    );
    expect(() => follow(queryClient, '/e', async () => {}, { eventSource: 'x' as never })).toThrow(
      ConfigurationError,
    );
  });

  it('refuses an address that is not a string or a URL', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    for (const url of [undefined, null, 42, { href: '/events' }]) {
      expect(() => follow(queryClient, url as never, async () => {}, { eventSource })).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option: 'url' }),
      );
    }
    expect(opened).toEqual([]);
    follow(queryClient, new URL('http://localhost/events'), async () => {}, { eventSource })();
    expect(opened).toEqual(['http://localhost/events']);
  });

  it('refuses an address no EventSource could open, without quoting it, instead of retrying it for ever', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    const addresses = ['', '  ', 'http://[secret-token', 'ftp://localhost/events', 'javascript:void 0'];
    for (const url of [...addresses, new URL('ws://localhost/events')]) {
      let refusal: unknown;
      try {
        follow(queryClient, url, async () => {}, { eventSource });
      } catch (error) {
        refusal = error;
      }
      expect(refusal, String(url)).toBeInstanceOf(ConfigurationError);
      expect(refusal).toMatchObject({
        option: 'url',
        message: expect.stringContaining('an http(s) URL'),
      });
      expect((refusal as Error).message).not.toContain('secret-token');
    }
    expect(opened).toEqual([]);
  });

  it('takes a relative address, which the page resolves', () => {
    const opened: string[] = [];
    const eventSource = (url: string) => {
      opened.push(url);
      return new FakeEventSource(url);
    };
    follow(queryClient, 'events', async () => {}, { eventSource })();
    follow(queryClient, '/api/events?since=1', async () => {}, { eventSource })();
    expect(opened).toEqual(['events', '/api/events?since=1']);
  });
});

/** An EventSource whose events the test fires. */
class FakeEventSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  readonly #listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: { data?: unknown }) {
    if (type === 'open') this.readyState = 1;
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.emit('error', {});
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}
