// The event relay's bounds: clients that do not read, heartbeats, bursts, and places (maxClients).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricError } from '../../src/core/errors.js';
import { createEventRelay } from '../../src/webhooks/index.js';
import { countSdkTimers } from '../helpers/fake-clock.js';
import { eventOf, frames } from './relay-client.js';
import { get, greeting, scored, url } from './relay-setup.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createEventRelay', () => {
  it('drops a client that does not read past maxBufferedEvents, and the others keep receiving', async () => {
    const relay = createEventRelay({ maxBufferedEvents: 4 });
    const slow = frames(relay.handler(get()));
    const reading = frames(relay.handler(get()));
    expect(await reading.next()).toMatch(greeting);
    const sentTo: number[] = [];
    for (let n = 1; n <= 8; n++) {
      sentTo.push(relay.publish(scored(n)));
      expect(eventOf(await reading.next()).data).toEqual(scored(n));
    }
    // Queued for both within this turn; the slow stream, past four unread (its greeting is not
    // counted), is dropped once the relay looks again, after the turn.
    expect(sentTo).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(relay.clients).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(relay.clients).toBe(1);
    expect(relay.publish(scored(9))).toBe(1);
    expect(eventOf(await reading.next()).data).toEqual(scored(9));
    // Dropped with an error, its queue discarded: nothing of what it held is delivered.
    const dropped = await slow.reader.read().catch((error: unknown) => error);
    expect(dropped).toBeInstanceOf(MetricError);
    expect((dropped as Error).message).toContain('4 messages were waiting');
    relay.close();
  });

  it.each([
    ['its greeting unread', 0, false],
    ['its greeting read', 0, true],
    ['its greeting and a replay of 5 read', 5, true],
  ])(
    'drops a client past exactly maxBufferedEvents unread messages, %s',
    async (_name, replayed, readFirst) => {
      const relay = createEventRelay({ maxBufferedEvents: 4 });
      const earlier = frames(relay.handler(get()));
      const lastId = /id: (\S+)/.exec((await earlier.next()) ?? '')?.[1];
      for (let n = 1; n <= replayed; n++) relay.publish(scored(n));
      const headers = replayed > 0 ? { 'last-event-id': lastId ?? '' } : undefined;
      const slow = frames(relay.handler(new Request(url, { headers })));
      if (readFirst) for (let i = 0; i <= replayed; i++) await slow.next();
      await earlier.reader.cancel();
      const turn = () => new Promise((resolve) => setTimeout(resolve, 1));
      for (let n = 1; n <= 4; n++) relay.publish(scored(100 + n));
      await turn();
      expect(relay.clients).toBe(1);
      relay.publish(scored(105));
      await turn();
      expect(relay.clients).toBe(0);
      relay.close();
    },
  );

  it('sends a heartbeat comment every heartbeatMs, and keeps no timer when nobody listens', async () => {
    vi.useFakeTimers();
    const timers = countSdkTimers();
    const relay = createEventRelay({ heartbeatMs: 1_000 });
    expect(timers()).toBe(0);
    const stream = frames(relay.handler(get()));
    expect(await stream.next()).toMatch(greeting);
    await vi.advanceTimersByTimeAsync(999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await stream.next()).toBe(': ping');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await stream.next()).toBe(': ping');
    await stream.reader.cancel();
    expect(relay.clients).toBe(0);
    expect(timers()).toBe(0);
  });

  it('drops a client that reads nothing once heartbeats fill its buffer', async () => {
    vi.useFakeTimers();
    const timers = countSdkTimers();
    const relay = createEventRelay({ heartbeatMs: 1_000, maxBufferedEvents: 3 });
    relay.handler(get());
    await vi.advanceTimersByTimeAsync(3_000);
    expect(relay.clients).toBe(1);
    // The fourth ping passes the bound; the relay drops the stream when it looks again, after the turn.
    await vi.advanceTimersByTimeAsync(1_001);
    expect(relay.clients).toBe(0);
    expect(timers()).toBe(0);
  });

  it('delivers a burst larger than maxBufferedEvents, published at once, to a client that reads', async () => {
    const relay = createEventRelay({ maxBufferedEvents: 4 });
    const reading = frames(relay.handler(get()));
    const idle = frames(relay.handler(get()));
    expect(await reading.next()).toMatch(greeting);
    const sentTo = Array.from({ length: 20 }, (_, i) => relay.publish(scored(i + 1)));
    expect(sentTo.every((count) => count === 2)).toBe(true);
    for (let n = 1; n <= 20; n++) expect(eventOf(await reading.next()).data).toEqual(scored(n));
    await new Promise((resolve) => setTimeout(resolve, 1));
    // The client that read is kept; the one that read nothing holds the burst unread, and goes.
    expect(relay.clients).toBe(1);
    const dropped = await idle.reader.read().catch((error: unknown) => error);
    expect(dropped).toBeInstanceOf(MetricError);
    relay.close();
  });

  it('answers 503 with Retry-After past maxClients, until a client leaves', async () => {
    const relay = createEventRelay({ maxClients: 2, retryAfterSeconds: 7 });
    const first = frames(relay.handler(get()));
    const leaving = new AbortController();
    relay.handler(get(undefined, leaving.signal));
    const full = relay.handler(get());
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('7');
    expect(await full.json()).toMatchObject({ error: 'relay_full' });
    leaving.abort();
    expect(relay.clients).toBe(1);
    expect(relay.handler(get()).status).toBe(200);
    await first.reader.cancel();
    expect(relay.clients).toBe(1);
    expect(relay.handler(get()).status).toBe(200);
    relay.close();
  });

  it('ends the stream of a page that left without an error, and frees its place at once', async () => {
    const relay = createEventRelay();
    const leaving = new AbortController();
    const left = frames(relay.handler(get(undefined, leaving.signal)));
    expect(await left.next()).toMatch(greeting);
    relay.publish(scored(1));
    leaving.abort();
    expect(relay.clients).toBe(0);
    // A server that pipes the body (Hono's node-server) logs a stream that errors: this one just ends.
    expect(await left.reader.read()).toEqual({ done: true, value: undefined });
    relay.close();
  });

  it('answers 500 to a request-like object without a signal, and keeps no place or heartbeat for it', () => {
    vi.useFakeTimers();
    const timers = countSdkTimers();
    const relay = createEventRelay({ maxClients: 2 });
    const requestLike = { method: 'GET', url, headers: new Headers() } as unknown as Request;
    for (let n = 0; n < 3; n++) expect(relay.handler(requestLike).status).toBe(500);
    expect(relay.clients).toBe(0);
    expect(timers()).toBe(0);
    expect(relay.handler(get()).status).toBe(200);
    relay.close();
  });
});
