import fc from 'fast-check';
import { expect } from 'vitest';
import { MetricError, WebhookPayloadError } from '../../src/core/errors.js';
import { parseWebhookEvent, type ScoreUpdatedEvent } from '../../src/webhooks/index.js';

/** The example event of the README: a real-looking `score_updated` body. */
export const validEvent = {
  event: 'score_updated',
  journal_id: 7,
  old_score: 61,
  new_score: 64,
  quartile: 'Q1',
  timestamp: '2024-05-01T12:00:00Z',
} as const satisfies ScoreUpdatedEvent;

export const validJson = JSON.stringify(validEvent);

export const encode = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

/** A fresh ArrayBuffer holding exactly the bytes of `text`. */
export const arrayBufferOf = (text: string): ArrayBuffer => {
  const bytes = encode(text);
  const buffer = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return buffer;
};

const knownKeys = new Set(['event', 'journal_id', 'old_score', 'new_score', 'quartile', 'timestamp']);

const safeInteger = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const journalId = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

/**
 * Whether a key anywhere in `value` names a member of `Object.prototype`: the oracle asks the runtime
 * itself, not the parser's list. Recursive: the generated values are shallow.
 */
export function hasBuiltInKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const builtIns = Object.getOwnPropertyNames(Object.prototype);
  return Object.keys(value).some(
    (key) =>
      (!Array.isArray(value) && builtIns.includes(key)) ||
      hasBuiltInKey((value as Record<string, unknown>)[key]),
  );
}

/** Whole-second UTC timestamps over every 4-digit year, as the service writes them. */
export const timestampArb = fc
  .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'));

const jsonPrimitiveArb = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
);

/** Fields a future server might add. Small on purpose: fc.jsonValue() made generation the slowest part. */
const extraValueArb = fc.oneof(
  jsonPrimitiveArb,
  fc.array(jsonPrimitiveArb, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), jsonPrimitiveArb, { maxKeys: 3 }),
);

/** Every valid event: any safe integers, any quartile string, any real timestamp, extra JSON fields. */
export const validEventArb: fc.Arbitrary<ScoreUpdatedEvent> = fc
  .record({
    journal_id: journalId,
    old_score: safeInteger,
    new_score: safeInteger,
    quartile: fc.oneof(fc.constantFrom('Q1', 'Q2', 'Q3', 'Q4'), fc.string({ unit: 'binary' })),
    timestamp: timestampArb,
    extra: fc.dictionary(
      fc.string({ maxLength: 10 }).filter((key) => !knownKeys.has(key) && !hasBuiltInKey({ [key]: 0 })),
      extraValueArb,
      { maxKeys: 3 },
    ),
  })
  // Through JSON once: fc.jsonValue may hold -0, which JSON itself cannot carry.
  .map(({ extra, ...fields }) => ({
    ...JSON.parse(JSON.stringify(extra)),
    event: 'score_updated' as const,
    ...fields,
  }));

/** Any text a body may hold: arbitrary strings (lone surrogates included) and JSON, with a BOM or not. */
export const bodyTextArb = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.json({ maxDepth: 2 }),
  fc.json({ maxDepth: 2 }).map((json) => `\ufeff${json}`),
);

/**
 * An independent oracle (neither the parser's hand-written checks nor zod): is `value` a valid event as
 * the API document describes it?
 */
export function isValidEvent(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const ints = [record.journal_id, record.old_score, record.new_score];
  if (record.event !== 'score_updated' || !ints.every(Number.isSafeInteger)) return false;
  if (hasBuiltInKey(record)) return false;
  if (typeof record.quartile !== 'string' || typeof record.timestamp !== 'string') return false;
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(record.timestamp)) return false;
  const date = new Date(record.timestamp);
  // A real date-time survives the round trip; Feb 30 or 24:00 would come back changed.
  return !Number.isNaN(date.getTime()) && date.toISOString() === record.timestamp.replace('Z', '.000Z');
}

/** Bodies a receiver must answer with 400, and the reason it must give. */
export const invalidBodies: Array<[name: string, body: string | Uint8Array<ArrayBuffer>, reason: string]> = [
  ['not JSON', 'hello', 'the body is not valid JSON'],
  ['empty', '', 'the body is empty'],
  ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'not valid UTF-8'],
  [
    'an unknown event',
    JSON.stringify({ ...validEvent, event: 'journal_deleted' }),
    'unknown webhook event "journal_deleted"',
  ],
  [
    'a wrong field',
    JSON.stringify({ ...validEvent, journal_id: '7' }),
    'journal_id: expected an integer, got string "7"',
  ],
  [
    'a bad timestamp',
    JSON.stringify({ ...validEvent, timestamp: '2024-02-30T12:00:00Z' }),
    'timestamp: expected a UTC',
  ],
];

/** Runs the parser and returns the error it threw, failing the test when it threw none. */
export function rejectionOf(body: unknown): WebhookPayloadError {
  try {
    parseWebhookEvent(body as never);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toBeInstanceOf(MetricError);
    return error as WebhookPayloadError;
  }
  throw new Error(`accepted an invalid body: ${String(body)}`);
}
