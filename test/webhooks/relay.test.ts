import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, MetricError, WebhookPayloadError } from '../../src/core/errors.js';
import { createEventRelay } from '../../src/webhooks/index.js';
import { countSdkTimers } from '../helpers/fake-clock.js';
import { invalidBodies, validEvent } from './fixtures.js';
import { startServer } from './node-server.js';
import { eventOf, frames, nodeListener } from './relay-client.js';

const url = 'http://localhost/events';
const get = (headers?: HeadersInit, signal?: AbortSignal) => new Request(url, { headers, signal });
const scored = (journal_id: number) => ({ ...validEvent, journal_id });
// Events that pass parseWebhookEvent (extra fields are kept) but that JSON.stringify cannot write.
const unsendable: [string, () => object][] = [
  ['a BigInt', () => ({ ...validEvent, extra: 3n })],
  [
    'a cycle',
    () => {
      const event: Record<string, unknown> = { ...validEvent };
      event.self = event;
      return event;
    },
  ],
  ['a toJSON function', () => ({ ...validEvent, toJSON: () => ({ event: 'forged' }) })],
];
// A new stream's greeting: a comment, and the id of the relay's latest event (`.0` before the first).
const greeting = /^: connected\nid: [0-9a-z]+\.\d+$/;

afterEach(() => {
  vi.useRealTimers();
});

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

  /** A relay refusing `body` with `reason`, sending nothing; closed once the next valid event came. */
  async function refusedThenNext(body: unknown, reason: string) {
    const relay = createEventRelay();
    const stream = frames(relay.handler(get()));
    expect(() => relay.publish(body as never)).toThrow(WebhookPayloadError);
    expect(() => relay.publish(body as never)).toThrow(reason);
    relay.publish(validEvent);
    expect(await stream.next()).toMatch(greeting);
    // The first frame after the greeting is the valid event, numbered 1: the refused ones took no id.
    const { id, data } = eventOf(await stream.next());
    expect(data).toEqual(validEvent);
    expect(id).toMatch(/\.1$/);
    relay.close();
    return relay;
  }

  it.each(invalidBodies)('refuses to publish %s, and sends nothing', async (_name, body, reason) => {
    await refusedThenNext(body, reason);
  });

  it('refuses a hostile object, getters and prototype keys included', () => {
    const relay = createEventRelay();
    relay.handler(get());
    const polluted = JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(validEvent).slice(1)}`);
    const throwing = {
      ...validEvent,
      get new_score(): number {
        throw new Error('boom');
      },
    };
    for (const hostile of [polluted, throwing, null, 42, [validEvent]]) {
      expect(() => relay.publish(hostile as never)).toThrow(WebhookPayloadError);
    }
    relay.close();
  });

  it.each(unsendable)('refuses to publish an event holding %s, and sends nothing', async (_name, make) => {
    const relay = await refusedThenNext(make(), 'the event holds a value JSON cannot carry');
    // Invalid whether the relay is open or not, as an event parseWebhookEvent refuses is.
    expect(() => relay.publish(make())).toThrow(WebhookPayloadError);
  });

  it('replays no old event to a client back with Last-Event-ID after an event JSON cannot carry', async () => {
    const relay = createEventRelay({ replayEvents: 2 });
    const first = frames(relay.handler(get()));
    await first.next();
    relay.publish(scored(1));
    relay.publish(scored(2));
    for (const [, make] of unsendable) expect(() => relay.publish(make())).toThrow();
    await first.next();
    const { id: lastId } = eventOf(await first.next());
    const back = frames(relay.handler(get({ 'last-event-id': lastId })));
    expect(await back.next()).toBe(': connected');
    relay.publish(scored(3));
    // The client had everything: its first event is the next one, whose id follows its last.
    const next = { id: lastId.replace(/\.2$/, '.3'), data: scored(3) };
    expect(eventOf(await back.next())).toEqual(next);
    expect(eventOf(await first.next())).toEqual(next);
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

  it('replays what a client missed when it comes back with Last-Event-ID', async () => {
    const relay = createEventRelay({ replayEvents: 3 });
    const first = frames(relay.handler(get()));
    await first.next();
    for (let n = 1; n <= 5; n++) relay.publish(scored(n));
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(eventOf(await first.next()).id);
    const replayedAfter = async (lastEventId: string) => {
      const stream = frames(relay.handler(get({ 'last-event-id': lastEventId })));
      const got: unknown[] = [];
      await stream.next();
      relay.publish(scored(99));
      for (let frame = await stream.next(); ; frame = await stream.next()) {
        if (frame?.includes('event: missed')) {
          // Where the client now is: the latest event before it came back.
          got.push(`missed, id ${/^id: (.*)$/m.exec(frame)?.[1]}`);
          continue;
        }
        const { data } = eventOf(frame);
        if ((data as { journal_id: number }).journal_id === 99) break;
        got.push((data as { journal_id: number }).journal_id);
      }
      await stream.reader.cancel();
      return got;
    };
    expect(await replayedAfter(ids[2]!)).toEqual([4, 5]);
    // Too old for the ring of 3 (journal 99 was published since), from another relay, or not an id:
    // told that events are gone, and given the latest id to come back with.
    const latest = (n: number) => ids[4]!.replace(/\d+$/, String(5 + n));
    expect(await replayedAfter(ids[0]!)).toEqual([`missed, id ${latest(1)}`]);
    expect(await replayedAfter(ids[4]!.replace(/^[^.]+/, 'other'))).toEqual([`missed, id ${latest(2)}`]);
    expect(await replayedAfter('garbage')).toEqual([`missed, id ${latest(3)}`]);
    // Back with that id, nothing is missing.
    expect(await replayedAfter(latest(4))).toEqual([]);
    relay.close();
  });

  it('replays more than maxBufferedEvents to a client back with Last-Event-ID, without dropping it', async () => {
    const relay = createEventRelay({ maxBufferedEvents: 4, replayEvents: 10 });
    const first = frames(relay.handler(get()));
    const before = /^id: (.*)$/m.exec((await first.next()) ?? '')?.[1];
    await first.reader.cancel();
    for (let n = 1; n <= 10; n++) relay.publish(scored(n));
    const back = frames(relay.handler(get({ 'last-event-id': before! })));
    // Published before the client read anything: its replay is not a backlog it left unread.
    expect(relay.publish(scored(11))).toBe(1);
    expect(await back.next()).toBe(': connected');
    const got: unknown[] = [];
    for (let n = 1; n <= 11; n++) got.push(eventOf(await back.next()).data);
    expect(got).toEqual(Array.from({ length: 11 }, (_, i) => scored(i + 1)));
    relay.close();
  });

  it('tells a client that comes back after a restart that events are gone; a new client is told nothing', async () => {
    const before = createEventRelay();
    const stream = frames(before.handler(get()));
    await stream.next();
    before.publish(scored(1));
    const { id } = eventOf(await stream.next());
    before.close();
    const after = createEventRelay();
    const back = frames(after.handler(get({ 'last-event-id': id })));
    expect(await back.next()).toBe(': connected'); // it has an id: the greeting gives none
    const missed = await back.next();
    expect(missed).toMatch(/^id: [0-9a-z]+\.0\nevent: missed\ndata: .+$/);
    const fresh = frames(after.handler(get()));
    expect(await fresh.next()).toMatch(greeting);
    after.publish(scored(2));
    expect(eventOf(await fresh.next()).data).toEqual(scored(2));
    after.close();
  });

  it('greets a new stream with the latest id, so that back before its first event it gets what it missed', async () => {
    const relay = createEventRelay();
    relay.publish(scored(1));
    const first = frames(relay.handler(get()));
    const startId = /^id: (.*)$/m.exec((await first.next()) ?? '')?.[1];
    expect(startId).toMatch(/\.1$/);
    await first.reader.cancel();
    relay.publish(scored(2));
    const back = frames(relay.handler(get({ 'last-event-id': startId! })));
    expect(await back.next()).toBe(': connected');
    expect(eventOf(await back.next()).data).toEqual(scored(2));
    relay.close();
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
