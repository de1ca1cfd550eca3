/**
 * The usage errors of the output options (`--output`, `--format`, `--resume`, `--overwrite`) and of
 * the other paths a command takes (`--failed`, `--input`): checked from the command line alone, before the run looks for a key or a base URL, and so before anything
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

/** The options that name a file, whose empty path names none (a variable left unset: `-o "$OUT"`). */
const fileOptions = { output: '--output', failed: '--failed', input: '--input' } as const;

/**
 * Refuses what no command can run with: an empty file path, `--output -` (for every format), a
 * database format without `--output` (a database is written by its own code, never to standard
 * output), and `--resume` or `--overwrite` without `--output` or with each other.
 */
export function checkOutputUsage(
  options: HarvestOptions & { readonly failed?: string; readonly input?: string },
): void {
  for (const [name, flag] of Object.entries(fileOptions))
    if (options[name as keyof typeof fileOptions] === '')
      throw new UsageError(`${flag} needs a file path, not an empty one`);
  const { format, output, resume, overwrite } = options;
  if (output === '-') throw new UsageError(dashOutputRefusal);
  if ((format === 'parquet' || format === 'sqlite') && output === undefined)
    throw new UsageError(`--format ${format} writes a file: add --output FILE.${format}`);
  if (resume && output === undefined) throw new UsageError('--resume needs --output <file>');
  if (overwrite && output === undefined) throw new UsageError('--overwrite needs --output <file>');
  if (resume && overwrite) throw new UsageError('--resume and --overwrite exclude each other: give one');
}
