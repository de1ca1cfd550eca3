/** Parsers of positional arguments. */
import { InvalidArgumentError } from 'commander';

/**
 * A resource id: a whole number, as the API document says no more of an id (`--` before a negative
 * one, which would read as an option).
 */
export function id(raw: string): string {
  if (!/^(0|-?[1-9]\d*)$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError('expected a whole number, e.g. 42.');
  }
  return raw;
}

/** The parser of a path parameter's argument, by the parameter's name; one not listed is taken as typed. */
export const pathArgumentParsers: Readonly<Record<string, (raw: string) => string>> = { id };
