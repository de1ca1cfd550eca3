/** Parsers of positional arguments. */
import { InvalidArgumentError } from 'commander';
import { integer } from './options.js';

/** Any safe whole number, as the options that take an id read it. */
const wholeNumber = integer();

/**
 * A resource id: a whole number, as the API document says no more of an id (`--` before a negative
 * one, which would read as an option), written as the SDK sends it (`042` is 42, `-0` is 0), as the
 * options that take an id read it.
 */
export function id(raw: string): string {
  try {
    return String(wholeNumber(raw));
  } catch {
    // Digits alone are a whole number, past the largest one sent exactly.
    const hint = /^\d+$/.test(raw) ? `up to ${Number.MAX_SAFE_INTEGER}` : 'e.g. 42';
    throw new InvalidArgumentError(`expected a whole number, ${hint}.`);
  }
}

/** The parser of a path parameter's argument, by the parameter's name; one not listed is taken as typed. */
export const pathArgumentParsers: Readonly<Record<string, (raw: string) => string>> = { id };
