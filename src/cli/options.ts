/**
 * Option parsers and the option sets commands share. A bad value is a commander
 * `InvalidArgumentError`: commander prints it with the flag, and the bin exits 2.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type FieldTree, fieldPaths, parseFields, unknownFields } from './output/fields.js';
import { type Format, formats } from './output/formats.js';
import { maxPrefetch } from './sdk-bounds.js';

/** A parser of whole numbers from `min` to `max` (any safe one by default: an id, as the API document says no more). */
export function integer(
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): (raw: string) => number {
  return (raw) => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      // A value past the largest exact one names the upper bound, however large.
      const tooLarge = /^\d+$/.test(raw) && value > max;
      const range =
        max !== Number.MAX_SAFE_INTEGER || tooLarge
          ? ` from ${min} to ${max}`
          : min > Number.MIN_SAFE_INTEGER
            ? ` ${min} or more`
            : '';
      throw new InvalidArgumentError(`expected a whole number${range}.`);
    }
    // `-0` is 0: it is sent, and saved, as such.
    return value === 0 ? 0 : value;
  };
}

/** A value that is not empty. */
export function text(raw: string): string {
  if (raw === '') throw new InvalidArgumentError('expected a value that is not empty.');
  return raw;
}

export function boolean(raw: string): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new InvalidArgumentError('expected true or false.');
}

/** An option taking `true` or `false`: its choices listed, so that help and completion offer them. */
export function booleanOption(flags: string, description: string): Option {
  return new Option(flags, description).choices(['true', 'false']).argParser(boolean);
}

/** The options every command has: how and where to write what it gets. */
export interface OutputOptions {
  format?: Format;
  output?: string;
  fields?: string[];
  rawCells?: boolean;
  /** `--row-group`: Parquet's records per row group. */
  rowGroup?: number;
}

/** A parser of `--fields`: names the command's records have, else the list of those they have. */
export function fieldList(tree: FieldTree): (raw: string) => string[] {
  return (raw) => {
    let fields: string[];
    try {
      fields = parseFields(raw);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    const unknown = unknownFields(fields, tree);
    if (unknown.length > 0) {
      throw new InvalidArgumentError(
        `no field ${unknown.join(', ')}; the fields are: ${fieldPaths(tree).join(', ')}.`,
      );
    }
    return fields;
  };
}

/** `--format`, `--output`, `--fields` (of the fields in `tree`) and `--raw-cells`. */
export function outputOptions(command: Command, tree?: FieldTree): Command {
  command
    .addOption(
      new Option(
        '--format <format>',
        'table on a terminal; else from the extension of --output (.csv .tsv .json .jsonl .ndjson .parquet .sqlite .sqlite3 .db), else json for one record, jsonl for a list',
      ).choices(formats),
    )
    .option('-o, --output <file>', 'write to this file instead of standard output');
  if (tree !== undefined) {
    command.option(
      '--fields <list>',
      `only these fields, in this order (a nested one by its dot path): ${fieldPaths(tree).join(', ')}`,
      fieldList(tree),
    );
  }
  return command.option(
    '--raw-cells',
    'csv, tsv: write cells as they are, even those a spreadsheet would run as a formula',
  );
}

/** What a list command was asked for: a page, `--limit` items, or `--all`. */
export interface PagingOptions extends OutputOptions {
  limit?: number;
  all?: boolean;
  page?: number;
  perPage?: number;
  prefetch?: number;
  resume?: boolean;
  overwrite?: boolean;
}

/**
 * `--resume` and `--overwrite`: what to do with an `--output` file a run left unfinished; and
 * `--row-group`, which only a harvest (a list written as it arrives) has a use for.
 */
export function harvestOptions(command: Command): Command {
  return command
    .option('--resume', 'with --output: continue a stopped run of this same command')
    .option('--overwrite', 'with --output: start again over a file a stopped run left')
    .option(
      '--row-group <n>',
      'parquet: records per row group, rounded up to whole pages (default: 10000)',
      integer(1, 1_000_000),
    );
}

/** The options of paginated commands; `perPage` false for an endpoint without `per_page`. */
export function pagingOptions(
  command: Command,
  { perPage = true, fields }: { perPage?: boolean; fields?: FieldTree } = {},
): Command {
  outputOptions(command, fields)
    .option('--limit <n>', 'at most n items, walking as many pages as that takes', integer(1))
    .option('--all', 'every item of every page')
    .option('--page <n>', 'the page to start from', integer(1));
  if (perPage) command.option('--per-page <n>', "items per page (default: the server's)", integer(1));
  command.option(
    '--prefetch <n>',
    `pages requested ahead while one is written (0 to ${maxPrefetch})`,
    integer(0, maxPrefetch),
    1,
  );
  return harvestOptions(command);
}
