/**
 * The usage errors of the output options (`--output`, `--format`, `--resume`, `--overwrite`): checked
 * from the command line alone, before the run looks for a key or a base URL, and so before anything
 * is read, written or requested.
 */
import { UsageError } from './errors.js';
import type { OutputOptions } from './options.js';

/** The refusal of `--output -`, for every format: standard output is the default, and `-` no file. */
export const dashOutputRefusal = '--output - is standard output: leave --output out instead';

/** The output options of any command: those of a paged one too, which resumes or starts over. */
export interface HarvestOptions extends OutputOptions {
  resume?: boolean;
  overwrite?: boolean;
}

/**
 * Refuses what no command can run with: `--output -` or an empty path (for every format), a database
 * format without `--output` (a database is written by its own code, never to standard output), and
 * `--resume` or `--overwrite` without `--output` or with each other.
 */
export function checkOutputUsage({ format, output, resume, overwrite }: HarvestOptions): void {
  if (output === '-') throw new UsageError(dashOutputRefusal);
  if (output === '') throw new UsageError('--output needs a file path, not an empty one');
  if ((format === 'parquet' || format === 'sqlite') && output === undefined)
    throw new UsageError(`--format ${format} writes a file: add --output FILE.${format}`);
  if (resume && output === undefined) throw new UsageError('--resume needs --output <file>');
  if (overwrite && output === undefined) throw new UsageError('--overwrite needs --output <file>');
  if (resume && overwrite) throw new UsageError('--resume and --overwrite exclude each other: give one');
}
