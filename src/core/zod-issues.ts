import type * as z from 'zod/mini';
import type { describeValue, quote } from './describe-value.js';
import type { ValidationIssue } from './errors.js';

/**
 * Readable validation issues from zod's: `journal_id: expected an integer, got string "7"`.
 *
 * zod/mini loads no locale, so every zod issue arrives as "Invalid input"; this writes the English
 * from the issue's `code`, `expected`, bounds and (with `reportInput: true`) `input`, for a response
 * zod refused (src/core/validate.ts) and the webhook reference schema's tests.
 */

type ZodIssue = z.core.$ZodIssue;

/**
 * How values are written, handed over by the loader (src/schemas/shapes.ts) rather than imported:
 * this module is loaded on demand with zod, and importing the first load's describe-value.ts would
 * make a splitting bundler cut it out of the first load into a chunk of its own.
 */
export interface ValueWords {
  readonly describeValue: typeof describeValue;
  readonly quote: typeof quote;
}

/**
 * zod issues → `{ path, message }` with a sentence a person can act on. Pass issues from
 * `z.safeParse(schema, value, { reportInput: true })` so that messages can say what was received.
 */
export function toValidationIssues(issues: readonly ZodIssue[], words: ValueWords): ValidationIssue[] {
  return issues.map((issue) => ({ path: [...issue.path], message: describeIssue(issue, words) }));
}

function describeIssue(issue: ZodIssue, words: ValueWords): string {
  const expectation = describeExpectation(issue, words);
  // For unknown keys the input is the whole object: saying so adds nothing.
  if (!('input' in issue) || issue.code === 'unrecognized_keys') return expectation;
  // A missing key and an explicit `undefined` read the same way: neither exists in JSON.
  if (issue.input === undefined) return `missing (${expectation})`;
  return `${expectation}, got ${words.describeValue(issue.input)}`;
}

/** What zod/mini says when no locale is loaded and the schema gave no message. */
export const placeholder = 'Invalid input';

function describeExpectation(issue: ZodIssue, { quote }: ValueWords): string {
  const describeLiteral = (value: unknown) => (typeof value === 'string' ? quote(value) : String(value));
  // A message other than zod's placeholder was written by the schema's author: it says it best.
  if (issue.message && issue.message !== placeholder) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${typeWords[issue.expected] ?? `a ${issue.expected}`}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${describeLiteral(issue.values[0])}`
        : `expected one of ${issue.values.map(describeLiteral).join(', ')}`;
    case 'invalid_format':
      return `expected ${formatWords[issue.format] ?? `the ${issue.format} format`}`;
    case 'too_big':
      return `expected ${boundWords(issue.origin, issue.inclusive ? 'at most' : 'less than', issue.maximum)}`;
    case 'too_small':
      return `expected ${boundWords(issue.origin, issue.inclusive ? 'at least' : 'more than', issue.minimum)}`;
    case 'not_multiple_of':
      return `expected a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `unexpected ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map(quote).join(', ')}`;
    default:
      return 'invalid value';
  }
}

const typeWords: Partial<Record<string, string>> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
  bigint: 'a bigint',
};

const formatWords: Partial<Record<string, string>> = {
  datetime: 'an ISO 8601 date-time',
  date: 'a calendar date "YYYY-MM-DD"',
};

function boundWords(origin: string, relation: string, bound: number | bigint): string {
  if (origin === 'int' && (bound === Number.MAX_SAFE_INTEGER || bound === Number.MIN_SAFE_INTEGER)) {
    return `a safe integer (${relation} ${bound})`;
  }
  if (origin === 'string') return `a string of ${relation} ${bound} characters`;
  if (origin === 'array' || origin === 'set') return `${relation} ${bound} ${bound === 1 ? 'item' : 'items'}`;
  return `a value ${relation} ${bound}`;
}
