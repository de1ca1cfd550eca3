// What the event relay refuses to publish, and that a refused event takes no id.
import { describe, expect, it } from 'vitest';
import { WebhookPayloadError } from '../../src/core/errors.js';
import { createEventRelay } from '../../src/webhooks/index.js';
import { invalidBodies, validEvent } from './fixtures.js';
import { eventOf, frames } from './relay-client.js';
import { get, greeting, scored } from './relay-setup.js';

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

describe('createEventRelay', () => {
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

  it.each([
    ['a prototype key', () => ({ ['__proto__']: 1 })],
    ['nesting past the depth any body may have', () => JSON.parse(`${'['.repeat(80)}${']'.repeat(80)}`)],
  ])(
    'refuses an event whose nested toJSON writes %s into the frame, and sends nothing',
    async (_name, write) => {
      const event = { ...validEvent, meta: { toJSON: write } };
      await refusedThenNext(event, 'invalid webhook payload');
    },
  );

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
});
