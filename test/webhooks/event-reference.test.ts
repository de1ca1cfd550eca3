/**
 * The webhook entry validates by hand (src/webhooks/event.ts) so that it ships no zod; the zod/mini
 * schema in src/schemas/webhook-event.ts stays the reference definition. These tests hold the two to
 * the same verdict, the same returned object (values, key order, prototype) and, through the client's
 * zod-issue formatter, the same issues.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { describeValue, quote } from '../../src/core/describe-value.js';
import { type ValidationIssue, WebhookPayloadError } from '../../src/core/errors.js';
import { toValidationIssues } from '../../src/core/zod-issues.js';
import { scoreUpdatedEventSchema } from '../../src/schemas/webhook-event.js';
import { validateEvent } from '../../src/webhooks/event.js';
import type { ScoreUpdatedEvent } from '../../src/webhooks/index.js';
import { hasBuiltInKey, timestampArb, validEvent } from './fixtures.js';

type Verdict = { ok: true; value: unknown } | { ok: false; issues: readonly ValidationIssue[] };

function byHand(input: unknown): Verdict {
  try {
    return { ok: true, value: validateEvent(input) };
  } catch (error) {
    if (!(error instanceof WebhookPayloadError)) throw error;
    return { ok: false, issues: error.issues };
  }
}

function byZod(input: unknown): Verdict {
  const result = z.safeParse(scoreUpdatedEventSchema, input, { reportInput: true });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toValidationIssues(result.error.issues, { describeValue, quote }) };
}

/**
 * Throws (rather than `expect`, which is slower in a 10,000-run loop) when the two disagree. An event
 * kind other than "score_updated" is refused by both, but by hand with its own message (naming the
 * kind), so only the verdict is compared then.
 */
function assertSame(input: Record<string, unknown>): boolean {
  const hand = byHand(input);
  // Keys named after Object.prototype's members: refused by hand only, on purpose (see below).
  if (hasBuiltInKey(input)) {
    if (hand.ok || !/^the key ".+" is not allowed/.test(String(hand.issues[0]?.message))) {
      expect(hand, `accepted a built-in key in ${String(JSON.stringify(input))}`).toMatchObject({
        ok: false,
      });
    }
    return false;
  }
  const zod = byZod(input);
  const same =
    hand.ok && zod.ok
      ? isDeepStrictEqual(hand.value, zod.value) &&
        isDeepStrictEqual(Object.keys(hand.value as object), Object.keys(zod.value as object))
      : !hand.ok && !zod.ok
        ? (typeof input.event === 'string' && input.event !== 'score_updated') ||
          isDeepStrictEqual(hand.issues, zod.issues)
        : false;
  if (!same) {
    expect(hand, `disagreement on ${String(JSON.stringify(input))}`).toEqual(zod);
    throw new Error('disagreement on -0, undefined or key order');
  }
  return hand.ok;
}

const padded = (width: number) => (n: number) => String(n).padStart(width, '0');
const often = <T>(usual: fc.Arbitrary<T>, rest: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: usual, weight: 6 }, { arbitrary: rest, weight: 1 });

/** Timestamps near the valid form: every part in range or just out of it, leap days often. */
const nearTimestampArb = fc
  .tuple(
    often(
      fc.integer({ min: 0, max: 9999 }).map(padded(4)),
      fc.constantFrom('0000', '1900', '2000', '2023', '2024', '2100', '2400', '12024', '+2024', '202'),
    ),
    often(fc.integer({ min: 1, max: 12 }).map(padded(2)), fc.constantFrom('00', '02', '13', '2', '1a')),
    often(fc.integer({ min: 28, max: 31 }).map(padded(2)), fc.integer({ min: 0, max: 32 }).map(padded(2))),
    often(fc.integer({ min: 0, max: 23 }).map(padded(2)), fc.constantFrom('24', '25', '7', '99')),
    often(fc.integer({ min: 0, max: 59 }).map(padded(2)), fc.constantFrom('60', '61')),
    often(fc.integer({ min: 0, max: 59 }).map(padded(2)), fc.constantFrom('60', '61', '5')),
    often(fc.constant('T'), fc.constantFrom('t', ' ', '')),
    often(
      fc.constant('Z'),
      fc.constantFrom('z', '', '+00:00', '-00:00', '+02:00', '.5Z', '.000Z', 'Z\n', 'ZZ', ' Z'),
    ),
  )
  .map(([y, mo, d, h, mi, s, t, zone]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${zone}`);

const edgeTimestamps = [
  '2024-02-29T23:59:59Z',
  '2023-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '0000-02-29T00:00:00Z',
  '2024-04-31T00:00:00Z',
  '2024-12-31T24:00:00Z',
  '2024-12-31T23:59:60Z',
  '2024-05-01T12:00:00.000Z',
  '2024-05-01T12:00:00.5Z',
  '2024-05-01T12:00:00+00:00',
  '2024-05-01T14:00:00+02:00',
  '2024-05-01T12:00:00',
  '2024-05-01T12:00:00z',
  '2024-05-01t12:00:00Z',
  '2024-05-01T12:00Z',
  '２０２４-05-01T12:00:00Z',
  '2024-05-01T12:00:00Z\n',
];

const oddValueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.double(),
  fc.constantFrom<unknown>(
    undefined,
    null,
    -0,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    2 ** 53,
    -(2 ** 53),
    1e21,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    '7',
    '',
    'score_updated',
    'journal_deleted',
    true,
    7n,
    Symbol('s'),
    () => 7,
    [],
    {},
    new Date(0),
  ),
);

const safeIntegerArb = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const positiveIdArb = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const timestampValueArb = fc.oneof(
  { arbitrary: nearTimestampArb, weight: 6 },
  { arbitrary: timestampArb, weight: 2 },
  { arbitrary: fc.constantFrom(...edgeTimestamps), weight: 2 },
  { arbitrary: fc.string({ maxLength: 24 }), weight: 1 },
  { arbitrary: oddValueArb, weight: 1 },
);
const absent = Symbol('absent');

/** Fields drawn one by one: usually valid, sometimes anything, sometimes missing. */
const randomFieldsArb = fc
  .record({
    event: often(fc.constant('score_updated'), fc.oneof(oddValueArb, fc.constant(absent))),
    journal_id: often(positiveIdArb, fc.oneof(safeIntegerArb, oddValueArb, fc.constant(absent))),
    old_score: often(safeIntegerArb, fc.oneof(oddValueArb, fc.constant(absent))),
    new_score: often(safeIntegerArb, fc.oneof(oddValueArb, fc.constant(absent))),
    quartile: often(fc.string(), fc.oneof(oddValueArb, fc.constant(absent))),
    timestamp: often(timestampValueArb, fc.constant(absent)),
    extra: fc.dictionary(
      // Now and then a key named after an Object.prototype member, which only the hand-written one refuses.
      often(
        fc.constantFrom('extra', '0', '10', 'then_', 'delivery_id'),
        fc.constantFrom('constructor', 'toString', 'valueOf'),
      ),
      oddValueArb,
      { maxKeys: 3 },
    ),
  })
  .map(({ extra, ...fields }) => {
    const input: Record<string, unknown> = { ...extra };
    for (const [key, value] of Object.entries(fields)) if (value !== absent) input[key] = value;
    return input;
  });

/** Valid events with a few fields set to anything (edge timestamps included) or deleted. */
const mutatedEventArb = fc
  .tuple(
    // Without validEventArb's extra fields (randomFieldsArb has those): it would double the run time.
    fc.record({
      event: fc.constant('score_updated'),
      journal_id: often(positiveIdArb, safeIntegerArb),
      old_score: safeIntegerArb,
      new_score: safeIntegerArb,
      quartile: fc.string(),
      timestamp: timestampArb,
    }),
    fc.array(
      fc.record({
        key: fc.constantFrom('event', 'journal_id', 'old_score', 'new_score', 'quartile', 'timestamp', 'x'),
        value: fc.oneof(oddValueArb, timestampValueArb, fc.constant(absent)),
      }),
      { maxLength: 3 },
    ),
  )
  .map(([event, changes]) => {
    const input: Record<string, unknown> = { ...event };
    for (const { key, value } of changes) {
      if (value === absent) delete input[key];
      else input[key] = value;
    }
    return input;
  });

describe('the hand-written validator and the zod/mini reference schema', () => {
  it('agree on verdicts, outputs and issues (10,000 generated inputs)', () => {
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(randomFieldsArb, mutatedEventArb), (input) => {
        runs += 1;
        if (assertSame(input)) accepted += 1;
      }),
      { numRuns: 10_000 },
    );
    // Both branches must be well exercised, or agreement would prove little.
    expect(accepted).toBeGreaterThan(runs / 5);
    expect(runs - accepted).toBeGreaterThan(runs / 5);
  });

  it.each(edgeTimestamps)('agree on the timestamp %j', (timestamp) => {
    assertSame({ ...validEvent, timestamp });
  });

  it('agree on February 29 of every year from 0000 to 9999', () => {
    let leapYears = 0;
    for (let year = 0; year <= 9999; year++) {
      const timestamp = `${String(year).padStart(4, '0')}-02-29T00:00:00Z`;
      if (assertSame({ ...validEvent, timestamp })) leapYears += 1;
    }
    expect(leapYears).toBe(2425);
  });

  it('agree on every day 00 to 32 of every month 00 to 13, in a leap and a common year', () => {
    for (const year of ['2024', '2023'])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          assertSame({ ...validEvent, timestamp: `${date}T23:59:59Z` });
        }
  });

  it('differ only where the hand-written one is stricter on purpose', () => {
    // Inherited fields were not in the JSON; zod reads them.
    expect(byZod(Object.create(validEvent)).ok).toBe(true);
    expect(byHand(Object.create(validEvent)).ok).toBe(false);
    // An own "__proto__" key would replace the prototype of a plain copy.
    const polluted = JSON.parse(`{"__proto__":{},${JSON.stringify(validEvent).slice(1)}`);
    expect(byHand(polluted)).toEqual({
      ok: false,
      issues: [
        {
          path: ['__proto__'],
          message: 'the key "__proto__" is not allowed: it shadows Object.prototype.__proto__',
        },
      ],
    });
    // So would a key that shadows another member of Object.prototype, at any depth.
    const shadowing = { ...validEvent, meta: { list: [{ toString: 'x' }] } };
    expect(byZod(shadowing).ok).toBe(true);
    expect(byHand(shadowing)).toEqual({
      ok: false,
      issues: [
        {
          path: ['meta', 'list', 0, 'toString'],
          message: 'the key "toString" is not allowed: it shadows Object.prototype.toString',
        },
      ],
    });
  });

  it('types: the schema outputs a ScoreUpdatedEvent', () => {
    expectTypeOf<z.output<typeof scoreUpdatedEventSchema>>().toExtend<ScoreUpdatedEvent>();
  });
});
