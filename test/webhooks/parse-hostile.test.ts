/**
 * Payloads built to hurt the code that handles an event: keys that shadow Object.prototype's members
 * at any depth, journal ids that name no journal, and nesting deep enough to overflow a recursive walk.
 */
import { describe, expect, it } from 'vitest';
import { maxBodyDepth as maxNesting } from '../../src/core/depth.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { encode, rejectionOf, validEvent, validJson } from './fixtures.js';

/** The fields the event type does not name: kept at run time, reached as the docs show. */
const extra = (event: object): Record<string, unknown> => event as Record<string, unknown>;

/** The valid event's JSON with `field` (raw JSON text) added as its last field. */
const withRaw = (name: string, raw: string) => `${validJson.slice(0, -1)},${JSON.stringify(name)}:${raw}}`;

// Asked of the runtime, not copied from the parser: every member of Object.prototype.
const builtIns = Object.getOwnPropertyNames(Object.prototype);

describe('keys that shadow a member of Object.prototype', () => {
  it('covers the usual members', () => {
    expect(builtIns).toEqual(
      expect.arrayContaining(['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']),
    );
  });

  it.each(builtIns)(
    'refuses %j at the top level, in an object, in an array, in an array of objects',
    (key) => {
      const shapes: Array<[raw: string, path: PropertyKey[]]> = [
        ['1', [key]],
        [`{"a":{"${key}":1}}`, ['x', 'a', key]],
        [`[0,{"b":[{"${key}":null}]}]`, ['x', 1, 'b', 0, key]],
      ];
      for (const [raw, path] of shapes) {
        const body = path.length === 1 ? withRaw(key, raw) : withRaw('x', raw);
        for (const form of [body, encode(body), JSON.parse(body)]) {
          const error = rejectionOf(form);
          expect(error.issues).toEqual([
            { path, message: `the key "${key}" is not allowed: it shadows Object.prototype.${key}` },
          ]);
          expect(error.message).toMatch(/^invalid webhook payload: /);
        }
      }
    },
  );

  it('leaves Object.prototype untouched by a nested JSON "__proto__"', () => {
    rejectionOf(withRaw('x', '{"__proto__":{"polluted":true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts the same names as values, and longer keys that contain them', () => {
    const body = withRaw('meta', '{"name":"toString","toStringTag":"constructor","list":["__proto__"]}');
    expect(extra(parseWebhookEvent(body)).meta).toEqual({
      name: 'toString',
      toStringTag: 'constructor',
      list: ['__proto__'],
    });
  });

  it('visits a shared object once, so a wide graph of references costs no more than its objects', () => {
    // 40 levels, each referring twice to the level below: 2^40 paths, 41 objects.
    let node: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 40; level++) node = { a: node, b: node };
    expect(extra(parseWebhookEvent({ ...validEvent, graph: node })).graph).toBe(node);
  });

  it('ends on a cycle in an already-parsed object, without looping', () => {
    const cyclic: Record<string, unknown> = { ...validEvent };
    cyclic.self = { back: cyclic };
    // Each object is walked once: the cycle ends at the first repeat, and the event is accepted.
    expect(extra(parseWebhookEvent(cyclic)).self).toBe(cyclic.self);
  });
});

describe('journal_id: any safe integer, as the document says no more of an id', () => {
  it.each([
    [1.5, 'expected an integer, got 1.5'],
    [2 ** 53, `expected a safe integer (at most ${Number.MAX_SAFE_INTEGER}), got ${2 ** 53}`],
    [-(2 ** 53), `expected a safe integer (at least ${Number.MIN_SAFE_INTEGER}), got ${-(2 ** 53)}`],
  ])('refuses %d', (journalId, message) => {
    const error = rejectionOf({ ...validEvent, journal_id: journalId });
    expect(error.issues).toEqual([{ path: ['journal_id'], message }]);
  });

  it('accepts 0, negative ids and the safe integers at either end', () => {
    for (const journalId of [1, 0, -5, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]) {
      expect(parseWebhookEvent({ ...validEvent, journal_id: journalId }).journal_id).toBe(journalId);
    }
  });

  it('accepts negative and zero scores', () => {
    const event = parseWebhookEvent({ ...validEvent, old_score: -3, new_score: 0 });
    expect([event.old_score, event.new_score]).toEqual([-3, 0]);
  });
});

describe('deep nesting', () => {
  const depth = 200_000;
  const deepArrays = withRaw('x', `${'['.repeat(depth)}${']'.repeat(depth)}`);
  const deepObjects = withRaw('x', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

  it.each([
    ['arrays', deepArrays],
    ['objects', deepObjects],
  ])('a payload nested 200,000 levels in %s gives WebhookPayloadError, not a RangeError', (_name, body) => {
    for (const form of [body, encode(body), JSON.parse(body)]) {
      const error = rejectionOf(form);
      expect(error.message).toContain(`nested deeper than ${maxNesting} levels`);
      // The path stops where the walk did: the bound, not the payload, sets its length.
      expect(error.issues[0]?.path).toHaveLength(maxNesting);
    }
  });

  it(`accepts nesting up to ${maxNesting} levels, the event itself being the first`, () => {
    const inner = maxNesting - 1;
    const body = withRaw('x', `${'['.repeat(inner)}${']'.repeat(inner)}`);
    expect(extra(parseWebhookEvent(body)).x).toBeInstanceOf(Array);
    const over = withRaw('x', `${'['.repeat(inner + 1)}${']'.repeat(inner + 1)}`);
    expect(rejectionOf(over).message).toContain('nested deeper');
  });
});
