import { describeValue, quote } from './describe-value.js';
import { InvalidParameterError } from './errors.js';
import type { Query } from './transport.js';

/**
 * Refusals of what is surely invalid, before anything is sent. Only what the API document makes
 * certain is refused here; everything else (an unknown `sort`, a `q` of any form) goes to the server.
 */

export function checkId(name: string, value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new InvalidParameterError(name, `${name} must be a positive integer, got ${describeValue(value)}`);
  }
  return value as number;
}

export function checkPositiveInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new InvalidParameterError(name, `${name} must be an integer ≥ 1, got ${describeValue(value)}`);
  }
  return value as number;
}

export function checkInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value)) {
    throw new InvalidParameterError(name, `${name} must be an integer, got ${describeValue(value)}`);
  }
  return value as number;
}

export function checkBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InvalidParameterError(name, `${name} must be a boolean, got ${describeValue(value)}`);
}

/** A lone surrogate cannot be percent-encoded (`encodeURIComponent` throws on it). */
const loneSurrogate = /[\uD800-\uDFFF]/u;

export function checkString(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new InvalidParameterError(name, `${name} must be a string, got ${describeValue(value)}`);
  }
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
  const list = allowed.map((v) => `"${v}"`).join(' or ');
  throw new InvalidParameterError(name, `${name} must be ${list}, got ${describeValue(value)}`);
}

/** The parameters object itself: absent, or a plain object. */
export function checkParams<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidParameterError('params', `parameters must be an object, got ${describeValue(value)}`);
  }
  return value;
}

/** `10.` + registrant + `/` + a non-empty suffix: the form every DOI has (ISO 26324). */
const doiForm = /^10\.[^/\s]+\/./su;

export function checkDoi(value: unknown): string {
  if (typeof value !== 'string' || !doiForm.test(value) || loneSurrogate.test(value)) {
    throw new InvalidParameterError(
      'doi',
      `doi must be a DOI such as "10.1000/xyz123" (10., registrant, /, suffix), got ${describeValue(value)}`,
    );
  }
  return value;
}

/** One parameter's check: the value to send, or an `InvalidParameterError` naming `name`. */
export type ParamCheck = (name: string, value: unknown) => Query[string];

/** One check per parameter of `P`, no more, no less: the compiler holds the names to the type. */
export type ParamChecks<P> = { readonly [K in keyof Required<P>]: ParamCheck };

/**
 * What one method takes, declared once: `checks` names its parameters (see {@link ParamChecks}),
 * `options` the names its last argument takes.
 */
export interface MethodSpec {
  /** The contract's name of the method: `papers.search`. */
  readonly method: string;
  /** The arguments before the parameters, as a hint spells them: `id, ` for `journals.papers`. */
  readonly leading?: string;
  readonly checks: Readonly<Record<string, ParamCheck>>;
  readonly options: Readonly<Record<string, true>>;
}

/**
 * The query `spec.method` sends for `params`: a name it does not take is refused before any value
 * is looked at, then each value passes its check; `given` holds values the caller does not set
 * directly (the page a walk is on).
 */
export function checkQuery(
  spec: MethodSpec,
  params: object | undefined,
  given: Readonly<Record<string, unknown>> = {},
): Query {
  const values = checkParams(params) as Record<string, unknown>;
  const known = Object.keys(spec.checks);
  for (const name of Object.keys(values)) {
    if (!known.includes(name)) throw unknownParameter(spec, name, known);
  }
  const query: Record<string, Query[string]> = {};
  for (const name of known)
    query[name] = spec.checks[name]!(name, name in given ? given[name] : values[name]);
  return query;
}

function unknownParameter(spec: MethodSpec, name: string, known: string[]): InvalidParameterError {
  const { method, leading = '' } = spec;
  if (Object.hasOwn(spec.options, name)) {
    return new InvalidParameterError(
      name,
      `${method}() takes no parameter "${name}"; request options go in the last argument: ${method}(${leading}params, { ${name} })`,
    );
  }
  const takes = known.length === 0 ? 'it takes none' : `it takes ${known.join(', ')}`;
  return new InvalidParameterError(name, `${method}() takes no parameter ${quote(name)}; ${takes}`);
}

/**
 * The names in the options argument of `spec.method`, checked before anything is sent: each must
 * be one of its request options (their values are checked where they are used).
 */
export function checkOptionNames(spec: MethodSpec, options: object | undefined): void {
  // Anything but an object is refused, naming `options`, where the values are checked.
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return;
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(spec.options, name)) continue;
    const { method, leading = '' } = spec;
    if (Object.hasOwn(spec.checks, name)) {
      throw new InvalidParameterError(
        name,
        `${method}() takes "${name}" as a parameter, not a request option: ${method}(${leading}{ ${name} }, options)`,
      );
    }
    const takes = Object.keys(spec.options).join(', ');
    throw new InvalidParameterError(
      name,
      `${method}() takes no parameter or request option ${quote(name)}; its request options are ${takes}`,
    );
  }
}
