import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookPayloadError } from '../../src/core/errors.js';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { arrayBufferOf, bodyTextArb, encode, isValidEvent, validEventArb, validJson } from './fixtures.js';

const numRuns = 10_000;

type Outcome = 'accepted' | 'refused';

/**
 * The contract: a valid event comes back, or a WebhookPayloadError is thrown; nothing else.
 * Plain throws rather than `expect` inside the 10,000-run loops: the same failures, in less time.
 */
function parseOrRefuse(body: unknown): { outcome: Outcome; event?: unknown } {
  let event: unknown;
  try {
    event = parseWebhookEvent(body as never);
  } catch (error) {
    if (!(error instanceof WebhookPayloadError)) throw new Error(`threw a non-WebhookPayloadError: ${error}`);
    if (typeof error.message !== 'string' || error.message === '') throw new Error('empty message');
    if (!Array.isArray(error.issues)) throw new Error('issues is not an array');
    return { outcome: 'refused' };
  }
  if (!isValidEvent(event)) throw new Error(`returned an invalid event: ${JSON.stringify(event)}`);
  return { outcome: 'accepted', event };
}

/** Counts outcomes so that a property cannot pass by only ever taking one branch. */
function tally() {
  const counts: Record<Outcome, number> = { accepted: 0, refused: 0 };
  const record = (outcome: Outcome) => {
    counts[outcome] += 1;
  };
  return { counts, record };
}

describe('property: any input → a valid event or WebhookPayloadError', () => {
  it('fc.anything(), every kind of value fast-check makes', () => {
    // Shallow on purpose: the parser looks at the top level only, and deep values cost generation time.
    const anything = fc.anything({
      maxDepth: 2,
      maxKeys: 5,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withTypedArray: true,
      withSparseArray: true,
      stringUnit: 'binary',
    });
    fc.assert(
      fc.property(anything, (value) => {
        parseOrRefuse(value);
      }),
      { numRuns },
    );
  });

  it('arbitrary strings, including lone surrogates and JSON-looking text', () => {
    fc.assert(
      fc.property(bodyTextArb, (body) => {
        parseOrRefuse(body);
      }),
      { numRuns },
    );
  });

  it('arbitrary bytes, as Uint8Array, ArrayBuffer and DataView', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.nat(2), (bytes, form) => {
        parseOrRefuse([bytes, bytes.slice().buffer, new DataView(bytes.buffer)][form]);
      }),
      { numRuns },
    );
  });

  it('bytes of a valid event with random edits (UTF-8 and JSON damage)', () => {
    const valid = encode(validJson);
    const edit = fc.record({
      at: fc.nat(valid.length - 1),
      kind: fc.constantFrom('replace', 'insert', 'delete', 'truncate'),
      byte: fc.integer({ min: 0, max: 255 }),
    });
    const { counts, record } = tally();
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let bytes = Array.from(valid);
        for (const { at, kind, byte } of edits) {
          const index = Math.min(at, bytes.length);
          if (kind === 'replace') bytes[index] = byte;
          else if (kind === 'insert') bytes.splice(index, 0, byte);
          else if (kind === 'delete') bytes.splice(index, 1);
          else bytes = bytes.slice(0, index);
        }
        record(parseOrRefuse(Uint8Array.from(bytes)).outcome);
      }),
      { numRuns },
    );
    expect(counts.accepted).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('valid events with mutated fields: accepted exactly when an independent check says valid', () => {
    const keys = fc.constantFrom(
      'event',
      'journal_id',
      'old_score',
      'new_score',
      'quartile',
      'timestamp',
      '__proto__',
      'constructor',
      'toString',
      'extra',
    );
    const values = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        'score_updated',
        'journal_deleted',
        '7',
        'Q1',
        '2024-02-30T00:00:00Z',
        '2024-02-29T00:00:00Z',
      ),
      fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 0, -1),
      fc.integer(),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.constantFrom<unknown>(undefined, 1n, Symbol('s'), [], {}, new Date(0), () => 7),
    );
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: keys, value: values }),
      fc.record({ kind: fc.constant('delete' as const), key: keys }),
    );
    const { counts, record } = tally();
    const property = fc.property(
      validEventArb,
      fc.array(mutation, { maxLength: 3 }),
      fc.nat(2),
      (event, changes, form) => {
        const input: Record<string, unknown> = { ...event };
        for (const change of changes) {
          if (change.kind === 'delete') delete input[change.key];
          // defineProperty, so that "__proto__" becomes an own key, as JSON.parse makes it.
          else
            Object.defineProperty(input, change.key, {
              value: change.value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
        }
        const body = form === 0 ? input : serialize(input, form === 1 ? 'text' : 'bytes');
        if (body === undefined) return; // not JSON-serializable (bigint, symbol): covered in object form
        const sent = body === input ? input : JSON.parse(JSON.stringify(input));
        const expected = isValidEvent(sent) && !Object.hasOwn(sent, '__proto__') ? 'accepted' : 'refused';
        const { outcome, event: parsed } = parseOrRefuse(body);
        record(outcome);
        if (outcome !== expected) throw new Error(`${outcome}, but ${expected} was expected`);
        if (outcome === 'accepted' && !isDeepStrictEqual(parsed, sent)) expect(parsed).toEqual(sent);
      },
    );
    fc.assert(property, { numRuns });
    expect(counts.accepted).toBeGreaterThan(numRuns / 10);
    expect(counts.refused).toBeGreaterThan(numRuns / 10);
  });
});

describe('property: every valid event parses back deep-equal', () => {
  it('as string, bytes, ArrayBuffer and object', () => {
    fc.assert(
      fc.property(validEventArb, (event) => {
        const json = JSON.stringify(event);
        for (const body of [json, encode(json), arrayBufferOf(json), event, structuredClone(event)]) {
          const parsed = parseWebhookEvent(body);
          // isDeepStrictEqual first (fast); toEqual only to explain a failure.
          if (!isDeepStrictEqual(parsed, event)) expect(parsed).toEqual(event);
        }
      }),
      // Five parses per run; the 10,000-run bar is for the any-input properties above.
      { numRuns: 3_000 },
    );
  });
});

function serialize(value: unknown, as: 'text' | 'bytes'): string | Uint8Array | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (json === undefined) return undefined;
  return as === 'text' ? json : encode(json);
}
