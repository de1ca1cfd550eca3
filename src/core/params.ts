import { describeValue } from './describe-value.js';
import { InvalidParameterError } from './errors.js';
import { escapeUnsafe } from './escape.js';
import { isPlainRecord } from './is-record.js';

/**
 * Refusals of what is surely invalid, before anything is sent. Only what the API document makes
 * certain is refused here; everything else (an unknown `sort`, a `q` of any form) goes to the server.
 */

/** The refusal of `value` for the parameter `name`: what it must be, and what it was. */
function refusal(name: string, must: string, value: unknown): InvalidParameterError {
  return new InvalidParameterError(name, `${name} must be ${must}, got ${describeValue(value)}`);
}

/** An identifier: any safe integer, as the document says no more (an unknown one is the server's 404). */
export function checkId(name: string, value: unknown): number {
  if (!Number.isSafeInteger(value)) throw refusal(name, 'a safe integer', value);
  return value as number;
}

export function checkPositiveInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw refusal(name, 'a safe integer ≥ 1', value);
  return value as number;
}

/** An integer when given, checked as an id is: the document says no more of `year` or an optional id. */
export function checkInteger(name: string, value: unknown): number | undefined {
  return value === undefined ? undefined : checkId(name, value);
}

export function checkBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw refusal(name, 'a boolean', value);
}

/** A lone surrogate cannot be percent-encoded (`encodeURIComponent` throws on it). */
const loneSurrogate = /[\uD800-\uDFFF]/u;

export function checkString(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw refusal(name, 'a string', value);
  if (loneSurrogate.test(value)) {
    throw new InvalidParameterError(name, `${name} must be well-formed Unicode (it has a lone surrogate)`);
  }
  return value;
}

export function checkOneOf<const T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T | undefined;
  throw refusal(name, allowed.map((v) => `"${v}"`).join(' or '), value);
}

/**
 * The parameters object itself: absent, or a plain object. A Map, a URLSearchParams or a class's
 * instance keeps its entries where no parameter is read: refused, not sent without them.
 */
export function checkParams<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  if (!isPlainRecord(value)) {
    throw new InvalidParameterError(
      'params',
      `parameters must be a plain object, got ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * `10.` + registrant + `/` + a non-empty suffix: the form every DOI has (ISO 26324). No white space in
 * the registrant nor at the end: a DOI read from a file with its newline is refused, not sent.
 */
export const doiForm = /^10\.[^/\s]+\/.*\S$/u;

/**
 * A DOI of that form holding none of the characters a terminal may act on (the one class of
 * core/escape.ts, which {@link escapeUnsafe} rewrites): a control character, or a bidi override that
 * makes one DOI read as another wherever it is shown.
 */
export function checkDoi(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !doiForm.test(value) ||
    escapeUnsafe(value) !== value ||
    loneSurrogate.test(value)
  ) {
    throw refusal('doi', 'a DOI such as "10.1000/xyz123" (10., registrant, /, suffix)', value);
  }
  return value;
}

/** The query of a request: undefined values are not sent. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** One parameter's check: the value to send, or an `InvalidParameterError` naming `name`. */
export type ParamCheck = (name: string, value: unknown) => Query[string];

/** One check per parameter of `P`, no more, no less: the compiler holds the names to the type. */
export type ParamChecks<P> = { readonly [K in keyof Required<P>]: ParamCheck };
