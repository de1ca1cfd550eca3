import type * as z from 'zod/mini';
import type { ValidationIssue } from './errors.js';
import { placeholder, toValidationIssues, type ValueWords } from './zod-issues.js';

/**
 * zod's verdict on a body the generated parser left to it, and its explanation, with work and memory
 * bounded whatever the body: zod lists every issue it meets, and a list of a million wrong items
 * would hold millions of them (gigabytes) for a message that shows five.
 */

/** A zod schema as the client checks bodies with it. */
export interface CheckedSchema<T> {
  safeParse(
    value: unknown,
    params?: { reportInput?: boolean; error?: () => string },
  ): z.core.util.SafeParseResult<T>;
}

/**
 * zod's message for every issue whose schema gave none: its own placeholder, which the issues' English
 * replaces. Given with each parse, it comes before what the host app configured for its own schemas
 * (`z.config()`: a locale, a `customError`), which would otherwise word (or throw on) the SDK's issues.
 */
const parseParams = { error: () => placeholder };

/** The body's output, or the issues that refuse it. */
export type ZodVerdict<T> = { data: T } | { issues: ValidationIssue[] };

/** Items explained in each list past the first one refused: enough to show a pattern, and bounded. */
export const explainedItems = 20;

/**
 * zod decides with `abortEarly` (each list and object stops at its first refused member), then
 * explains a copy of the body whose lists stop {@link explainedItems} past that member, without the
 * secret (`hide`): a message quotes, and cuts, values, and a cut secret would go unrecognised.
 */
export function checkWithZod<T>(
  schema: CheckedSchema<T>,
  value: unknown,
  words: ValueWords,
  hide: (value: unknown) => unknown = (same) => same,
): ZodVerdict<T> {
  // abortEarly is a parse context zod honours (its own `validate` sets it) without typing it for callers.
  const verdict = schema.safeParse(value, { ...parseParams, abortEarly: true } as typeof parseParams);
  if (verdict.success) return { data: verdict.data };
  const cut = { any: false };
  const copy = explainable(value, verdict.error.issues[0]?.path, cut);
  const explained = schema.safeParse(hide(copy), { ...parseParams, reportInput: true });
  const issues = toValidationIssues((explained.error ?? verdict.error).issues, words);
  if (cut.any) {
    issues.push({
      path: [],
      message: `each list explained up to ${explainedItems} items past its first refused one`,
    });
  }
  return { issues };
}

/**
 * A copy of `value` whose arrays stop {@link explainedItems} past the first refused item: on `path`
 * (zod's first issue) that item's index, elsewhere the start. Indexes stay as in the body.
 */
function explainable(
  value: unknown,
  path: readonly PropertyKey[] | undefined,
  cut: { any: boolean },
): unknown {
  if (value === null || typeof value !== 'object') return value;
  const [key, ...rest] = path ?? [];
  const along = (name: PropertyKey, item: unknown) => explainable(item, name === key ? rest : undefined, cut);
  if (Array.isArray(value)) {
    const end = (typeof key === 'number' ? key + 1 : 0) + explainedItems;
    if (value.length > end) cut.any = true;
    return value.slice(0, end).map((item, index) => along(index, item));
  }
  // fromEntries defines each key, so that a `__proto__` key stays a plain property of the copy.
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, along(name, item)]));
}
