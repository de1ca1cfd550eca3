/** Parsers of positional arguments. */
import { InvalidArgumentError } from 'commander';

/**
 * A resource id: a whole number, as the API document says no more of an id (`--` before a negative
 * one, which would read as an option), written as the SDK sends it (`042` is 42, `-0` is 0), as the
 * options that take an id read it.
 */
export function id(raw: string): string {
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new InvalidArgumentError('expected a whole number, e.g. 42.');
  }
  return String(value === 0 ? 0 : value);
}

/** The parser of a path parameter's argument, by the parameter's name; one not listed is taken as typed. */
export const pathArgumentParsers: Readonly<Record<string, (raw: string) => string>> = { id };
