// The event relay's streams: opening, closing, methods, options, and a real Node HTTP server.
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { createEventRelay } from '../../src/webhooks/index.js';
import { validEvent } from './fixtures.js';
import { startServer } from './node-server.js';
import { eventOf, frames, nodeListener } from './relay-client.js';
import { get, greeting, scored, url } from './relay-setup.js';

describe('createEventRelay', () => {
  it('answers a GET with an event stream that starts at once', async () => {
    const relay = createEventRelay();
    const response = relay.handler(get());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(await frames(response).next()).toMatch(greeting);
    relay.close();
  });

  it('sends one event to each of 50 open streams', async () => {
    const relay = createEventRelay();
    const streams = Array.from({ length: 50 }, () => frames(relay.handler(get())));
    expect(relay.clients).toBe(50);
    expect(relay.publish(validEvent)).toBe(50);
    for (const stream of streams) {
      expect(await stream.next()).toMatch(greeting);
      expect(eventOf(await stream.next()).data).toEqual(validEvent);
    }
    relay.close();
  });

  it('close() ends every stream after what it holds, and refuses new ones', async () => {
    const relay = createEventRelay();
    const streams = Array.from({ length: 3 }, () => frames(relay.handler(get())));
    relay.publish(validEvent);
    relay.close();
    expect(relay.clients).toBe(0);
    for (const stream of streams) {
      expect(await stream.next()).toMatch(greeting);
      expect(eventOf(await stream.next()).data).toEqual(validEvent);
      expect(await stream.next()).toBeUndefined();
    }
    const refused = relay.handler(get());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ error: 'relay_closed', message: 'the event relay is closed' });
    expect(relay.publish(validEvent)).toBe(0);
  });

  it('answers 405 to other methods, and HEAD without a stream, 503 once closed', () => {
    const relay = createEventRelay();
    const post = relay.handler(new Request(url, { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = relay.handler(new Request(url, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(relay.clients).toBe(0);
    relay.close();
    const closed = relay.handler(new Request(url, { method: 'HEAD' }));
    expect(closed.status).toBe(503);
    expect(closed.headers.get('retry-after')).toBe('5');
  });

  it('answers HEAD as GET when the relay is full', () => {
    const relay = createEventRelay({ maxClients: 1 });
    relay.handler(get());
    expect(relay.handler(new Request(url, { method: 'HEAD' })).status).toBe(503);
    expect(relay.clients).toBe(1);
    relay.close();
  });

  it('frees the place of a request aborted before it was answered', () => {
    const relay = createEventRelay();
    relay.handler(get(undefined, AbortSignal.abort()));
    expect(relay.clients).toBe(0);
  });

  it.each([
    ['heartbeatMs', 0],
    ['maxClients', 1.5],
    ['maxBufferedEvents', -1],
    ['replayEvents', '100'],
    ['retryAfterSeconds', Number.NaN],
  ])('refuses %s: %s', (option, value) => {
    expect(() => createEventRelay({ [option]: value })).toThrow(ConfigurationError);
    expect(() => createEventRelay({ [option]: value })).toThrow(`\`${option}\` must be an integer`);
  });

  it('delivers a burst of 200 events (past the 64 a client may leave unread) over a real Node HTTP server', async () => {
    const relay = createEventRelay();
    const server = await startServer(nodeListener(relay));
    try {
      const stream = frames(await fetch(server.url));
      expect(await stream.next()).toMatch(greeting);
      const sentTo = Array.from({ length: 200 }, (_, i) => relay.publish(scored(i + 1)));
      expect(sentTo.every((count) => count === 1)).toBe(true);
      for (let n = 1; n <= 200; n++) expect(eventOf(await stream.next()).data).toEqual(scored(n));
      expect(relay.clients).toBe(1);
    } finally {
      relay.close();
      await server.close();
    }
  });

  it('streams over a real Node HTTP server, and a client that disconnects frees its place', async () => {
    const relay = createEventRelay();
    const server = await startServer(nodeListener(relay));
    try {
      const leaving = new AbortController();
      const response = await fetch(server.url, { signal: leaving.signal });
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const stream = frames(response);
      expect(await stream.next()).toMatch(greeting);
      expect(relay.publish(JSON.stringify(validEvent))).toBe(1);
      expect(eventOf(await stream.next()).data).toEqual(validEvent);
      leaving.abort();
      await vi.waitFor(() => expect(relay.clients).toBe(0), { timeout: 10_000 });
    } finally {
      relay.close();
      await server.close();
    }
  });
});
