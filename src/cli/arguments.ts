/** Parsers of positional arguments. */
import { InvalidArgumentError } from 'commander';

/** A resource id: a positive whole number. */
export function id(raw: string): string {
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError('expected a positive whole number, e.g. 42.');
  }
  return raw;
}
