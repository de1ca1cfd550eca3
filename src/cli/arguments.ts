/** Parsers of positional arguments. */
import { InvalidArgumentError } from 'commander';

/** A resource id: a positive whole number. */
export function id(raw: string): string {
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError('expected a positive whole number, e.g. 42.');
  }
  return raw;
}

/** The parser of a path parameter's argument, by the parameter's name; one not listed is taken as typed. */
export const pathArgumentParsers: Readonly<Record<string, (raw: string) => string>> = { id };
