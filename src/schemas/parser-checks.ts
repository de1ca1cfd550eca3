/**
 * The checks the generated parsers (parsers.generated.ts, written by scripts/generate-parsers.ts) are
 * composed of, each with zod's semantics for its kind (see scripts/parser-emitter.ts). A check
 * returns the value it accepts and throws `refused` at the first value that does not fit; `parser`
 * turns that into INVALID. An object's fields are read and built by an object literal of its own,
 * so that the common path stays straight-line code.
 */
import { isRecord } from '../core/is-record.js';
import { INVALID } from '../core/parser-sentinel.js';

export type Parser<T = unknown> = (value: unknown) => T;
export type Fields = Record<string, unknown>;

const refused = Symbol('refused');

function fail(): never {
  throw refused;
}

/** What z.int() accepts. False for anything but a number, so it needs no typeof check before it. */
const isSafeInteger = Number.isSafeInteger as (value: unknown) => value is number;

export const int = (value: unknown): number => (isSafeInteger(value) ? value : fail());
export const string = (value: unknown): string => (typeof value === 'string' ? value : fail());
export const boolean = (value: unknown): boolean => (typeof value === 'boolean' ? value : fail());
export const unknown = (value: unknown): unknown => value;

/** A field of z.unknown(): any value, but the key must be there. */
export const present = (record: Fields, key: string): unknown => (key in record ? record[key] : fail());

/** The number, if above the bound (or equal to it, when inclusive). */
export const bounded =
  (parser: Parser<number>, bound: number, inclusive: boolean): Parser<number> =>
  (value) => {
    const n = parser(value);
    return (inclusive ? n < bound : n <= bound) ? fail() : n;
  };

/** The string, if the pattern matches it; lastIndex is reset first, as zod does. */
export const matching =
  (parser: Parser<string>, pattern: RegExp): Parser<string> =>
  (value) => {
    const text = parser(value);
    pattern.lastIndex = 0;
    return pattern.test(text) ? text : fail();
  };

/** A fresh array of the same length, element by element. */
export const array =
  (element: Parser): Parser<unknown[]> =>
  (value) => {
    if (!Array.isArray(value)) fail();
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = element(value[i]);
    return out;
  };

/**
 * z.looseObject: any non-null object but an array; the fields build reads and checks, in order,
 * then every other own enumerable key as is (not a member a host app added to a prototype) but __proto__ (assigning it would replace the output's
 * prototype). Keys in the fields' own order are passed over without a lookup.
 */
export const object = (build: (record: Fields) => Fields): Parser<Fields> => {
  let keys: string[] | undefined;
  return (value) => {
    if (!isRecord(value)) fail();
    const record = value;
    const out = build(record);
    keys ??= Object.keys(out);
    let next = 0;
    for (const key of Object.keys(record)) {
      if (key === keys[next]) next++;
      else if (key !== '__proto__' && !Object.hasOwn(out, key)) out[key] = record[key];
    }
    return out;
  };
};

/** The parser's output, or INVALID for a value one of its checks refused. */
export const parser =
  (parse: Parser) =>
  (input: unknown): unknown => {
    try {
      return parse(input);
    } catch (error) {
      if (error === refused) return INVALID;
      throw error;
    }
  };
