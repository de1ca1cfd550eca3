import { runInNewContext } from 'node:vm';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  parseWebhookEvent,
  type Quartile,
  type ScoreUpdatedEvent,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { arrayBufferOf, encode, validEvent, validJson } from './fixtures.js';

describe('parseWebhookEvent: every body form', () => {
  const bytes = encode(validJson);
  const forms: [string, unknown][] = [
    ['string', validJson],
    ['string with a BOM', `\ufeff${validJson}`],
    ['string with surrounding whitespace', `\n  ${validJson}\r\n`],
    ['Uint8Array', bytes],
    ['Uint8Array with a BOM', encode(`\ufeff${validJson}`)],
    ['Node Buffer', Buffer.from(validJson)],
    ['Buffer from the shared pool (non-zero byteOffset)', Buffer.from(`xx${validJson}`).subarray(2)],
    ['subarray of a larger Uint8Array', encode(`[[[${validJson}]]]`).subarray(3, 3 + bytes.byteLength)],
    ['ArrayBuffer', arrayBufferOf(validJson)],
    ['DataView', new DataView(arrayBufferOf(`..${validJson}..`), 2, bytes.byteLength)],
    [
      'Uint16Array over the bytes',
      new Uint16Array(arrayBufferOf(validJson.length % 2 ? `${validJson} ` : validJson)),
    ],
    ['SharedArrayBuffer view', sharedCopy(bytes)],
    ['SharedArrayBuffer', sharedCopy(bytes).buffer],
    ['ArrayBuffer from another realm (node:vm)', otherRealmCopy(bytes)],
    ['Uint8Array from another realm (node:vm)', new Uint8Array(otherRealmCopy(bytes))],
    ['already-parsed object', { ...validEvent }],
    ['null-prototype object', Object.assign(Object.create(null), validEvent)],
  ];

  it.each(forms)('accepts a %s', (_name, body) => {
    expect(parseWebhookEvent(body as never)).toEqual(validEvent);
  });

  it('returns the typed fields', () => {
    const event = parseWebhookEvent(validJson);
    expect(event.event).toBe('score_updated');
    expect(event.journal_id).toBe(7);
    expect(event.old_score).toBe(61);
    expect(event.new_score).toBe(64);
    expect(event.quartile).toBe('Q1');
    expect(event.timestamp).toBe('2024-05-01T12:00:00Z');
  });

  it('returns a new plain object and leaves the input untouched', () => {
    const input = { ...validEvent, extra: { nested: [1] } };
    const before = structuredClone(input);
    const event = parseWebhookEvent(input);
    expect(event).not.toBe(input);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(input).toEqual(before);
  });

  it('puts the documented fields first, then the others in the order received', () => {
    const { event, ...rest } = validEvent;
    const event_ = parseWebhookEvent({ b: 2, ...rest, a: 1, event });
    expect(Object.keys(event_)).toEqual([...Object.keys(validEvent), 'b', 'a']);
  });

  it('returns an event whose Object.prototype members work (keys shadowing them are refused)', () => {
    const event = parseWebhookEvent(validJson);
    expect(event.constructor).toBe(Object);
    expect(String(event)).toBe('[object Object]');
    expect(Object.hasOwn(event, 'journal_id')).toBe(true);
    expect(() => parseWebhookEvent(`{"toString":"x",${validJson.slice(1)}`)).toThrow(
      /"toString" is not allowed/,
    );
  });
});

describe('parseWebhookEvent: what the document leaves open is accepted', () => {
  it('keeps fields the server adds', () => {
    // The type names the documented fields only; an extra one is read through a wider type.
    const event = parseWebhookEvent(
      JSON.stringify({ ...validEvent, delivery_id: 'd-1', meta: { retry: 2 } }),
    ) as ScoreUpdatedEvent & { delivery_id?: unknown; meta?: unknown };
    expect(event.delivery_id).toBe('d-1');
    expect(event.meta).toEqual({ retry: 2 });
  });

  it.each(['Q2', 'Q3', 'Q4', 'N/A', '', 'Q5 (provisional)'])('accepts quartile %j', (quartile) => {
    expect(parseWebhookEvent({ ...validEvent, quartile }).quartile).toBe(quartile);
  });

  it.each([
    ['negative and zero scores', { old_score: -3, new_score: 0 }],
    [
      'the largest safe integers',
      { journal_id: Number.MAX_SAFE_INTEGER, new_score: Number.MIN_SAFE_INTEGER },
    ],
  ])('accepts %s', (_name, patch) => {
    const event = parseWebhookEvent(JSON.stringify({ ...validEvent, ...patch }));
    expect(event).toEqual({ ...validEvent, ...patch });
  });

  it.each(['7e0', '7.0', '0.7e1'])('accepts the JSON number %s, which is the integer 7', (written) => {
    const body = validJson.replace('"journal_id":7', `"journal_id":${written}`);
    expect(body).toContain(written);
    expect(parseWebhookEvent(body).journal_id).toBe(7);
  });

  it.each(['2024-02-29T23:59:59Z', '2000-02-29T00:00:00Z', '1999-12-31T23:59:59Z', '0001-01-01T00:00:00Z'])(
    'accepts the real date-time %s',
    (timestamp) => {
      expect(parseWebhookEvent({ ...validEvent, timestamp }).timestamp).toBe(timestamp);
    },
  );
});

describe('types', () => {
  it('infers the documented shape', () => {
    const event = parseWebhookEvent(validJson);
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(event).toEqualTypeOf<ScoreUpdatedEvent>();
    expectTypeOf(event.event).toEqualTypeOf<'score_updated'>();
    expectTypeOf(event.journal_id).toEqualTypeOf<number>();
    expectTypeOf(event.quartile).toEqualTypeOf<Quartile>();
    expectTypeOf(event.timestamp).toEqualTypeOf<string>();
    // @ts-expect-error: the type names the documented fields only
    void event.anything_else;
    // The known labels stay suggestible while any string is allowed.
    expectTypeOf<'Q1'>().toExtend<Quartile>();
    expectTypeOf<string>().toExtend<Quartile>();
  });
});

function sharedCopy(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

/** An ArrayBuffer made by another global object, where `instanceof ArrayBuffer` is false. */
function otherRealmCopy(bytes: Uint8Array): ArrayBuffer {
  const buffer = runInNewContext(`new ArrayBuffer(${bytes.byteLength})`) as ArrayBuffer;
  expect(buffer instanceof ArrayBuffer).toBe(false);
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
