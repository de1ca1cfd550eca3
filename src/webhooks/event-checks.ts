import { maxBodyDepth, pathTooDeep } from '../core/depth.js';
import { isRecord } from '../core/is-record.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { datePattern } from '../schemas/date-pattern.js';

/*
 * What makes a value a webhook event. The webhook parser (event.ts) and the query entry's event
 * stream (queries.follow) run these same checks, so both ends take the same events. The checks only
 * say yes or no, with a reason: the parser words what is refused, while the stream drops it, and so
 * carries none of the parser's sentences.
 */

/** The one kind of event the API document describes. */
export const eventKind = 'score_updated';

/**
 * Why {@link checkEvent} refused a value, with what the parser needs to say so: the value itself, no
 * object (`value`), the path of the key or the nesting refused (`key`, `depth`), or the record whose
 * {@link fields} do not all fit (`fields`; among them, maybe, an unknown kind of event).
 */
export interface Refusals {
  value: unknown;
  key: PropertyKey[];
  depth: PropertyKey[];
  fields: Record<string, unknown>;
}

/** What the caller does with a refused value: it throws, so the checks stop there. */
export type Refuse = <W extends keyof Refusals>(why: W, detail: Refusals[W]) => never;

/** The time of day after the date: `Thh:mm:ssZ` exactly (no fraction, no offset, upper-case T and Z). */
const timeOfDay = /^T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/**
 * Each documented field, in the document's order (which is also the order of issues and of the
 * returned object's keys), with whether a value fits it.
 */
export const fields: Record<keyof ScoreUpdatedEvent, (value: unknown) => boolean> = {
  event: (value) => value === eventKind,
  // Safe integers: a larger JSON number was already rounded by JSON.parse, so it cannot be trusted.
  // The document says no more of an id than that it is an integer.
  journal_id: (value) => Number.isSafeInteger(value),
  old_score: (value) => Number.isSafeInteger(value),
  new_score: (value) => Number.isSafeInteger(value),
  quartile: (value) => typeof value === 'string',
  // `YYYY-MM-DDThh:mm:ssZ` on a day that exists, by the schemas' own date pattern (ASCII digits, the
  // Gregorian calendar, proleptic before 1582, as ISO 8601).
  timestamp: (value) =>
    typeof value === 'string' && datePattern.test(value.slice(0, 10)) && timeOfDay.test(value.slice(10)),
};

/**
 * Checks a decoded body and returns the event: a new plain object, the documented fields first, then
 * the others as received. Every object and array below it is checked too: no key names a member of
 * `Object.prototype`, and nothing is nested deeper than core's `maxBodyDepth` (the event being level
 * 1); an event is flat, and the bound leaves room for nested fields a future server may add.
 *
 * `value` is data: what `JSON.parse` made, or the parser's snapshot of a body it was handed (its own
 * fields, each getter run once, in a null-prototype object), so each field is read as it stands.
 *
 * @throws what `refuse` throws, for a value that is not an event; other errors only from hostile
 *   objects (throwing getters, proxies).
 */
export function checkEvent(value: unknown, refuse: Refuse): ScoreUpdatedEvent {
  if (!isRecord(value)) refuse('value', value);
  const record = value as Record<string, unknown>;
  const tooDeep = pathTooDeep(record, maxBodyDepth, (key, parent) => {
    // A key named after one of `Object.prototype`'s members (`toString`, `hasOwnProperty`, `__proto__`,
    // …) hides the built-in on the object that holds it: `event.toString()` or `String(event)` throws,
    // `record.hasOwnProperty(…)` calls the sender's value, `value.constructor` is no longer the
    // constructor. `__proto__` copied onto an ordinary object replaces its prototype instead of adding
    // a field. None is a field of any event. (`Object.prototype` has no prototype: `in` sees its own.)
    if (key in Object.prototype) refuse('key', [...parent, key]);
  });
  if (tooDeep !== undefined) refuse('depth', tooDeep);
  if (Object.entries(fields).some(([key, fits]) => !fits(record[key]))) refuse('fields', record);
  // Every check refuses `undefined`, so the record holds each documented field: spread over `fields`,
  // it replaces each check with its value, and a key set again keeps its place, the document's order.
  return { ...fields, ...record } as unknown as ScoreUpdatedEvent;
}
