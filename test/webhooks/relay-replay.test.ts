// The event relay's replay to a client back with Last-Event-ID, and what it says when events are gone.
import { describe, expect, it } from 'vitest';
import { createEventRelay } from '../../src/webhooks/index.js';
import { eventOf, frames } from './relay-client.js';
import { get, greeting, scored } from './relay-setup.js';

describe('createEventRelay', () => {
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
});
