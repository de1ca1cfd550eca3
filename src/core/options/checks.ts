import { quote } from '../describe-value.js';
import { ConfigurationError } from '../errors.js';
import { isRecord } from '../is-record.js';

/**
 * The one set of checks every entry's options go through (client, call, cache, quota, receivers, mock,
 * and the command line's flags through them). Each returns the value it was given, or `undefined`
 * where the option was left out, so callers apply their own defaults; a bad value is a
 * `ConfigurationError` naming the option. Messages never quote the value: it may be a secret.
 */

/**
 * An entry's options once checked, from its public options type: every field present, none
 * `undefined`. Each entry derives its resolved options from its own public type with it, so that the
 * field list is written once.
 */
export type Resolved<T> = { readonly [K in keyof T]-?: Exclude<T[K], undefined> };

/** One `true` per name of `T`, no more, no less: the compiler holds a list of names to its type. */
export type OptionNames<T> = { readonly [K in keyof Required<T>]: true };

/**
 * The form of an API key: visible ASCII characters with no spaces, which an `Authorization: Bearer`
 * header can carry. A key of any other form is refused by `Headers`, or answered 401 on every request.
 */
export const keyForm = /^[\x21-\x7e]+$/;

/** The largest delay `setTimeout` can hold. */
export const maxTimerMs = 2 ** 31 - 1;

/** An integer in `[min, max]`. */
export function checkInteger(option: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigurationError(option, `\`${option}\` must be an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * Milliseconds: a finite number in `(0, max]` (or `[0, max]` with `allowZero`), at most what a timer holds.
 */
export function checkDuration(
  option: string,
  value: unknown,
  { max = maxTimerMs, allowZero = false }: { max?: number; allowZero?: boolean } = {},
): number | undefined {
  if (value === undefined) return undefined;
  // The type first: comparing an object with a number calls its valueOf, which may throw.
  if (typeof value !== 'number' || !(allowZero ? value >= 0 : value > 0) || !(value <= max)) {
    throw new ConfigurationError(
      option,
      `\`${option}\` must be a number of milliseconds in ${allowZero ? '[' : '('}0, ${max}]`,
    );
  }
  return value;
}

/** A share, such as a rate of faults: a number in `[0, 1]`. */
export function checkFraction(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ConfigurationError(option, `\`${option}\` must be a number from 0 to 1`);
  }
  return value;
}

/** One of a fixed set of strings. */
export function checkOneOf<T extends string>(
  option: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ConfigurationError(option, `\`${option}\` must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** `true` or `false`. */
export function checkBoolean(option: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ConfigurationError(option, `\`${option}\` must be true or false`);
  return value;
}

/** A function. */
export function checkFunction<T>(option: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new ConfigurationError(option, `\`${option}\` must be a function`);
  return value as T;
}

/**
 * The names of an options object, each one of `names`: an option misspelt (`timout`) or meant for
 * something else would otherwise be ignored without a word. A name it lacks is refused, named as
 * `prefix` + the name (`cache.stor`); only names are quoted, never values.
 */
export function checkNames(what: string, options: object, names: readonly string[], prefix = ''): void {
  // Own names only: a name some library put on Object.prototype must not refuse every object.
  for (const name of Object.keys(options)) {
    if (!names.includes(name)) {
      throw new ConfigurationError(prefix + name, `${what} takes no option ${quote(name)}`);
    }
  }
}

/** A plain object (not `null`, not an array). */
export function checkObject<T extends object>(option: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new ConfigurationError(option, `\`${option}\` must be an object`);
  }
  return value as T;
}

/**
 * An absolute http(s) URL with no credentials, query or fragment: a base URL. The value is not
 * quoted, since a URL with `user:pass@` is a secret.
 */
export function checkHttpUrl(option: string, value: unknown): URL | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    if (typeof value !== 'string') throw new TypeError('not a string');
    url = new URL(value);
  } catch {
    throw new ConfigurationError(option, `${option} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(option, `${option} must use http or https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(option, `${option} must not carry credentials (user:password@)`);
  }
  if (/[?#]/.test(value as string)) {
    throw new ConfigurationError(option, `${option} must not carry a query or a fragment`);
  }
  return url;
}
