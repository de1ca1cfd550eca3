// queries.follow against a real relay over HTTP, with undici's EventSource.
import type { ServerResponse } from 'node:http';
import { EventSource } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { type EventSourceLike, follow } from '../../src/query/follow.js';
import {
  createEventRelay,
  type EventRelayOptions,
  type ScoreUpdatedEvent,
} from '../../src/webhooks/index.js';
import { validEvent } from '../webhooks/fixtures.js';
import { startServer } from '../webhooks/node-server.js';
import { nodeListener } from '../webhooks/relay-client.js';
import { queryClient } from './follow-setup.js';

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
});
