import { maxBodyDepth, pathTooDeep } from '../core/depth.js';
import { describeValue } from '../core/describe-value.js';
import type { ValidationIssue } from '../core/errors.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';

/*
 * What makes a value a webhook event. The webhook parser (event.ts) and the query entry's event
 * stream (queries.follow) run these same checks, so both ends take the same events; the parser words
 * what is refused, while the stream only drops it and so carries none of the parser's sentences.
 */

/** The one kind of event the API document describes. */
export const eventKind = 'score_updated';

/**
 * Why {@link checkEvent} refused a value, with what the parser needs to say so: the value itself
 * (`value`, `promise`, `stream`), the path of the key or the nesting refused (`key`, `depth`), the
 * kind received (`kind`), or the issues of the fields, in the document's order (`fields`).
 */
export interface Refusals {
  value: unknown;
  promise: unknown;
  stream: unknown;
  key: PropertyKey[];
  depth: PropertyKey[];
  kind: string;
  fields: ValidationIssue[];
}

/** What the caller does with a refused value: it throws, so the checks stop there. */
export type Refuse = <W extends keyof Refusals>(why: W, detail: Refusals[W]) => never;

/**
 * The names of `Object.prototype`'s members (`toString`, `hasOwnProperty`, `__proto__`, …). A key with
 * one of these names hides the built-in on the object that holds it: `event.toString()` or
 * `String(event)` throws, `record.hasOwnProperty(…)` calls the sender's value, `value.constructor` is
 * no longer the constructor. `__proto__` copied onto an ordinary object replaces its prototype instead
 * of adding a field. None is a field of any event.
 */
const builtInNames = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Each documented field, in the document's order (which is also the order of issues and of the
 * returned object's keys), with its check: what was expected, or '' when the value fits.
 */
const fields: Record<string, (value: unknown) => string> = {
  event: (value) => (value === eventKind ? '' : `expected "${eventKind}"`),
  // Identifiers start at 1: 0 or a negative id names no journal.
  journal_id: (value) => checkInteger(value) || ((value as number) > 0 ? '' : 'expected a positive integer'),
  old_score: checkInteger,
  new_score: checkInteger,
  quartile: (value) => (typeof value === 'string' ? '' : 'expected a string'),
  timestamp: (value) =>
    typeof value !== 'string'
      ? 'expected a string'
      : isTimestamp(value)
        ? ''
        : 'expected a UTC date-time "YYYY-MM-DDThh:mm:ssZ" (a real date, whole seconds, Z)',
};

/** A safe integer: a larger JSON number was already rounded by JSON.parse, so it cannot be trusted. */
function checkInteger(value: unknown): string {
  if (!Number.isInteger(value)) return 'expected an integer';
  if (Number.isSafeInteger(value)) return '';
  return (value as number) > 0
    ? `expected a safe integer (at most ${Number.MAX_SAFE_INTEGER})`
    : `expected a safe integer (at least ${Number.MIN_SAFE_INTEGER})`;
}

/** `YYYY-MM-DDThh:mm:ssZ` exactly (ASCII digits; no fraction, no offset, upper-case T and Z). */
const timestampForm = /^(\d{4})-(\d\d)-(\d\d)T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/** The form above, on a day that exists: the Gregorian calendar, proleptic before 1582 (as ISO 8601). */
function isTimestamp(text: string): boolean {
  const match = timestampForm.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/**
 * Checks a decoded body and returns the event: a new plain object, the documented fields first, then
 * the others as received. Every object and array below it is checked too: no key names a member of
 * `Object.prototype`, and nothing is nested deeper than core's `maxBodyDepth` (the event being level
 * 1); an event is flat, and the bound leaves room for nested fields a future server may add.
 *
 * @throws what `refuse` throws, for a value that is not an event; other errors only from hostile
 *   objects (throwing getters, proxies).
 */
export function checkEvent(value: unknown, refuse: Refuse): ScoreUpdatedEvent {
  const record = ownFields(value, refuse);
  const tooDeep = pathTooDeep(record, maxBodyDepth, (key, parent) => {
    if (builtInNames.has(key)) refuse('key', [...parent, key]);
  });
  if (tooDeep !== undefined) refuse('depth', tooDeep);
  const received = record.event;
  if (typeof received === 'string' && received !== eventKind) refuse('kind', received);
  const event: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [key, check] of Object.entries(fields)) {
    const field = record[key];
    const expected = check(field);
    if (expected !== '') {
      // A missing key and an explicit `undefined` read the same way: neither exists in JSON.
      const got = field === undefined ? `missing (${expected})` : `${expected}, got ${describeValue(field)}`;
      issues.push({ path: [key], message: got });
    }
    event[key] = field;
  }
  if (issues.length > 0) refuse('fields', issues);
  for (const key of Object.keys(record)) if (!Object.hasOwn(fields, key)) event[key] = record[key];
  return event as unknown as ScoreUpdatedEvent;
}

/**
 * A snapshot of the body's own enumerable fields in a null-prototype object.
 *
 * - Only own fields count: a field inherited through a prototype was not in the JSON the service sent.
 * - Each getter runs once, so a value cannot change between validation and use.
 * - A `__proto__` key becomes an own field of the null-prototype copy, for the key check to refuse.
 */
function ownFields(value: unknown, refuse: Refuse): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse('value', value);
  const source = value as Record<string, unknown>;
  if (typeof source.then === 'function') refuse('promise', value);
  if (typeof source.getReader === 'function' || typeof source.arrayBuffer === 'function') {
    refuse('stream', value);
  }
  const record: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(source)) record[key] = source[key];
  return record;
}
