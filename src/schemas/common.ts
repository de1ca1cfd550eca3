import * as z from 'zod/mini';
import type { Quartile } from '../core/score-updated-event.js';

/**
 * Every numeric field of the API is an integer: a safe one, never a float or a numeric string. zod
 * reports a non-number given to `z.int()` as "expected number"; say what the document means.
 */
export const integer = z.int({
  error: (issue) =>
    issue.code === 'invalid_type' && issue.expected === 'number' ? 'expected an integer' : undefined,
});

/**
 * A journal's {@link Quartile} label: any string, since the API document shows only `Q1` and does
 * not list the others. Used by the journal schemas and the webhook event's reference schema.
 */
export const quartileSchema: z.ZodMiniType<Quartile, unknown> = z.string();

/** The aggregate counts subjects and countries carry. */
export const aggregateCounts = { journals: integer, papers: integer, citations: integer };

/**
 * `YYYY-MM-DD`, a real calendar date: the pattern of date-pattern.ts, which the generated parser and the
 * webhook checks use. The schemas hold a copy of their own: they load on demand, and a module they shared
 * with the first load would be a chunk of its own there, which costs a browser app more than the copy
 * (a test holds the two equal). A string with a pattern rather than `z.iso.date()`, which brings classes
 * of its own; the message is the one zod-issues.ts writes for an ISO date.
 */
export const isoDatePattern =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/;
export const isoDate = z.string().check(z.regex(isoDatePattern, 'expected a calendar date "YYYY-MM-DD"'));

/** `{ data, total }`, the envelope of every paginated response. */
export function pageOf<Item extends z.core.SomeType>(item: Item) {
  return z.looseObject({ data: z.array(item), total: integer.check(z.nonnegative()) });
}

/**
 * An element whose shape the API document does not publish: passed through as sent, never rejected.
 * The type lists the fields one can reasonably expect, all optional, so that reading one is checked.
 */
export function unpublished<Shape>() {
  return z.unknown() as unknown as z.ZodMiniType<Shape>;
}

/**
 * A model's type: its schema's output without the `[k: string]: unknown` index signature of a loose
 * object. The object still holds every field the server sent (loose objects keep them at run time);
 * the type names only the documented ones, so that a misspelt field is a compile error.
 */
export type Fields<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T // first: `string & {}` (a Quartile) would otherwise be mapped as an object
  : T extends readonly (infer Item)[]
    ? Fields<Item>[]
    : T extends object
      ? { [K in keyof T as string extends K ? never : K]: Fields<T[K]> }
      : T;
