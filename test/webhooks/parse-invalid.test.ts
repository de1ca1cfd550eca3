/**
 * Bodies parseWebhookEvent refuses before it reads any field: what is not a JSON object, and objects
 * built to break the reading itself (prototype keys, getters, proxies).
 */
import { describe, expect, it } from 'vitest';
import { WebhookPayloadError } from '../../src/core/errors.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { encode, rejectionOf, validEvent, validJson } from './fixtures.js';

describe('bodies that are not a JSON object', () => {
  it.each([
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), /not valid UTF-8/],
    [
      'a truncated UTF-8 sequence',
      encode(validJson.replace('Q1', 'Q1é')).slice(0, -1),
      /not valid|UTF-8|JSON/,
    ],
    ['an overlong UTF-8 encoding of "{"', new Uint8Array([0xc1, 0xbb, 0x7d]), /not valid UTF-8/],
    ['an empty string', '', /empty/],
    ['whitespace only', ' \n\t ', /empty/],
    ['empty bytes', new Uint8Array(0), /empty/],
    ['an empty ArrayBuffer', new ArrayBuffer(0), /empty/],
    ['a BOM only', '\ufeff', /empty/],
    ['two BOMs', `\ufeff\ufeff${validJson}`, /not valid JSON/],
    ['not JSON', 'event=score_updated&journal_id=7', /not valid JSON/],
    ['truncated JSON', validJson.slice(0, -1), /not valid JSON/],
    ['JSON with trailing garbage', `${validJson}x`, /not valid JSON/],
    ['two JSON documents', `${validJson}${validJson}`, /not valid JSON/],
    ['JSON null', 'null', /expected a JSON object, got null/],
    ['a JSON array', `[${validJson}]`, /expected a JSON object, got an array/],
    ['a JSON string', JSON.stringify(validJson), /expected a JSON object, got string "\{\\"event/],
    ['a JSON number', '42', /expected a JSON object, got 42/],
    ['JSON true', 'true', /got true/],
    ['null', null, /got null/],
    ['undefined', undefined, /got nothing/],
    ['a number', 7, /got 7$/],
    ['a bigint', 7n, /got bigint$/],
    ['a boolean', false, /got false$/],
    ['a symbol', Symbol('x'), /got a symbol/],
    ['a function', () => validEvent, /got a function/],
    ['an array', [validEvent], /got an array/],
    ['a Promise', Promise.resolve(validJson), /Promise; await the body/],
    [
      'a Request',
      new Request('http://localhost/', { method: 'POST', body: validJson }),
      /read its body first/,
    ],
    ['a Blob', new Blob([validJson]), /read its body first/],
    ['a ReadableStream', new Blob([validJson]).stream(), /read its body first/],
  ])('refuses %s', (_name, body, message) => {
    expect(rejectionOf(body).message).toMatch(message);
  });

  it('keeps the JSON.parse error as the cause, out of the message', () => {
    const error = rejectionOf('{"event": nope}');
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(error.message).not.toContain('nope');
    expect(error.issues).toEqual([]);
  });

  it('refuses a detached ArrayBuffer', () => {
    const buffer = new ArrayBuffer(8);
    structuredClone(buffer, { transfer: [buffer] });
    expect(rejectionOf(buffer).message).toMatch(/invalid webhook payload/);
  });
});

describe('hostile objects', () => {
  it('refuses an own "__proto__" key in JSON, without touching any prototype', () => {
    const body = `{"__proto__":{"polluted":true},${validJson.slice(1)}`;
    const error = rejectionOf(body);
    expect(error.issues).toEqual([
      {
        path: ['__proto__'],
        message: 'the key "__proto__" is not allowed: it shadows Object.prototype.__proto__',
      },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses an own "__proto__" key on an already-parsed object', () => {
    const body = JSON.parse(`{"__proto__":{"event":"score_updated"},${validJson.slice(1)}`);
    expect(rejectionOf(body).message).toContain('"__proto__"');
  });

  it('does not take fields from a prototype', () => {
    const error = rejectionOf(Object.create(validEvent));
    expect(error.issues.map((issue) => issue.path[0])).toEqual(Object.keys(validEvent));
  });

  it('does not take fields from a JSON "__proto__" that would become the prototype', () => {
    const error = rejectionOf(`{"__proto__":${validJson}}`);
    expect(error).toBeInstanceOf(WebhookPayloadError);
  });

  it('wraps a getter that throws', () => {
    const body = {
      ...validEvent,
      get new_score(): number {
        throw new RangeError('boom');
      },
    };
    const error = rejectionOf(body);
    expect(error.message).toBe('invalid webhook payload: the body could not be read');
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  it('reads each getter once, so the value cannot change after validation', () => {
    let reads = 0;
    const body = {
      ...validEvent,
      get journal_id(): unknown {
        reads += 1;
        return reads === 1 ? 7 : 'changed';
      },
    };
    expect(parseWebhookEvent(body).journal_id).toBe(7);
    expect(reads).toBe(1);
  });

  it('wraps proxies whose traps throw, and revoked proxies', () => {
    const trap = () => {
      throw new Error('trap');
    };
    const hostile = new Proxy(
      {},
      { ownKeys: trap, get: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap },
    );
    const { proxy, revoke } = Proxy.revocable({ ...validEvent }, {});
    revoke();
    for (const body of [hostile, proxy]) expect(rejectionOf(body)).toBeInstanceOf(WebhookPayloadError);
  });

  it('wraps a throwing Symbol.toStringTag and a fake ArrayBuffer', () => {
    const throwingTag = {
      get [Symbol.toStringTag](): string {
        throw new Error('tag');
      },
    };
    const fakeBuffer = { [Symbol.toStringTag]: 'ArrayBuffer', length: 3 };
    expect(rejectionOf(throwingTag)).toBeInstanceOf(WebhookPayloadError);
    expect(rejectionOf(fakeBuffer)).toBeInstanceOf(WebhookPayloadError);
  });

  it('does not call toString or valueOf of the values it describes', () => {
    let called = false;
    const sneaky = {
      toString: () => {
        called = true;
        return 'x';
      },
    };
    sneaky.valueOf = sneaky.toString;
    rejectionOf({ ...validEvent, journal_id: sneaky, quartile: sneaky });
    expect(called).toBe(false);
  });
});
