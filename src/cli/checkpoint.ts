/**
 * The checkpoint of a resumable harvest (`--output FILE`), beside the output (see `checkpointPath`).
 * It records the command that writes the file, the byte length of the output that is complete,
 * where to carry on, and what the command adds of its own (get-many: its failures so far). Saved as
 * pages (or batches of DOIs) reach the file (see `checkpointEveryMs`), through a temporary file
 * renamed over the old one: a run killed at any moment leaves the old checkpoint or the new one,
 * never half of one. A checkpoint read back is checked whole before FILE is touched: it is a
 * file anyone can edit, and a wrong length would cut or pad FILE.
 */
import { createHash } from 'node:crypto';
import { readFile, stat, unlink } from 'node:fs/promises';
import { commandKey, isEarlierCheckpoint, isEarlierCheckpointOf, isOption } from './checkpoint-earlier.js';
import { UsageError } from './errors.js';
import { isRow } from './output/cells.js';
import { terminalSafe } from './output/escape.js';
import type { ListState } from './output/writer-types.js';

/**
 * What get-many keeps in its checkpoint beside the harvest's fields: what a resume carries on from.
 * Absent from the checkpoints of walks, and of get-many runs of versions that did not keep them.
 */
export interface CheckpointAdditions {
  /** The DOIs that failed before `position`: a resumed run counts them in its exit code. */
  readonly failures?: number;
  /** The `--failed` file as given, and its byte length at `position`: a resume cuts it back to that. */
  readonly failed?: { readonly path: string; readonly bytes: number };
}

export interface Checkpoint extends CheckpointAdditions {
  /** The command line that writes the output, paging and formatting options included. */
  readonly command: readonly string[];
  /** Bytes of the output that are complete; a resume cuts the file back to this length. */
  readonly bytes: number;
  /** The list writer's state at that point. */
  readonly writer: ListState;
  /** Walks: the next page to request. get-many: the DOIs done, counted from the first. */
  readonly position: number;
  /** Whether the run finished: a resume then has nothing left to do. */
  readonly complete: boolean;
}

/** The positions a command can resume from: a walk's pages from 1, get-many's DOIs from 0 to their count. */
export interface PositionRange {
  readonly min: number;
  readonly max: number;
}

/**
 * Where the checkpoint of a run into `output` is kept. A file a resume cuts back (text, Parquet) has
 * one, `FILE.checkpoint.json`: its bytes are one run's. A database is upserted, never cut back, and
 * shared by the runs of several commands: each `command` given keeps its own,
 * `FILE.<digest of the command>.checkpoint.json`, which another command's run neither reads nor replaces.
 */
export function checkpointPath(output: string, command?: readonly string[]): string {
  if (command === undefined) return `${output}.checkpoint.json`;
  const digest = createHash('sha256').update(JSON.stringify(command)).digest('hex').slice(0, 12);
  return `${output}.${digest}.checkpoint.json`;
}

/** Whether `path` is one `checkpointPath(output, …)` gives, for any command: both resolved alike. */
export function isCheckpointOf(path: string, output: string): boolean {
  if (!path.startsWith(`${output}.`)) return false;
  return /^([0-9a-f]{12}\.)?checkpoint\.json$/.test(path.slice(output.length + 1));
}

/**
 * The checkpoint at `path` to resume from: `undefined` when there is none (a fresh start). One that
 * does not hold what a checkpoint must, or whose length is past FILE's end, or of another command (one
 * an earlier release wrote is compared as that release recorded the command, `typed`), or
 * of records written to a FILE that is gone, is refused (a usage error naming what is wrong) before
 * FILE is touched. A Parquet file's row groups are checked by its writer, which knows their columns.
 */
export async function readCheckpoint(
  output: string,
  path: string,
  command: { readonly identity: readonly string[]; readonly typed: readonly string[] },
  positions: PositionRange,
  format: string,
): Promise<Checkpoint | undefined> {
  const text = await readText(path);
  if (text === undefined) return undefined;
  const saved = parseCheckpoint(text, positions);
  if (typeof saved === 'string') throw refusedCheckpoint(path, saved);
  const same = isEarlierCheckpoint(saved.command)
    ? isEarlierCheckpointOf(saved.command, command.typed)
    : commandKey(saved.command) === commandKey(command.identity);
  if (!same) throw anotherCommand(output, saved.command, command.identity);
  const size = await sizeOf(output);
  // A database's checkpoint counts no bytes: its records say that pages were written.
  if (size === undefined && (saved.bytes > 0 || saved.writer.count > 0))
    throw refusedCheckpoint(path, `${output} is gone`);
  if (size !== undefined && saved.bytes > size)
    throw refusedCheckpoint(path, `bytes is ${saved.bytes}, past the ${size} bytes of ${output}`);
  const parquet = format === 'parquet' && !saved.complete ? parquetProblem(saved) : undefined;
  if (parquet !== undefined) throw refusedCheckpoint(path, parquet);
  return saved;
}

/**
 * What is wrong with where an unfinished Parquet file stands: the file is cut back to `bytes`, and
 * its writer goes on from `writer.parquet.offset`, which must be the same place.
 */
function parquetProblem({ bytes, writer: { parquet } }: Checkpoint): string | undefined {
  if (parquet === undefined)
    return bytes === 0 ? undefined : `writer.parquet is missing, with ${bytes} bytes written`;
  if (parquet.offset !== bytes) return `writer.parquet.offset is ${parquet.offset}, not bytes ${bytes}`;
  return undefined;
}

/**
 * The refusal of a resume into a file another command wrote. When only options differ, it names
 * them: `--resume: out.jsonl was written by another command: the checkpoint was made with --year
 * 2023, this run has --year 2024; …`. The command is the checkpoint's text, which anyone can edit:
 * escaped with the file's name.
 */
function anotherCommand(output: string, saved: readonly string[], current: readonly string[]): UsageError {
  const words = (command: readonly string[]) => command.filter((part) => !isOption(part));
  const options = (command: readonly string[]) => new Map(command.filter(isOption).map(optionOf));
  // The saved command as the command line gives it: `--per-page 5`, not its record `--perPage=5`.
  const given = (part: string) => (isOption(part) ? optionWords(...optionOf(part)) : part);
  const what =
    JSON.stringify(words(saved)) === JSON.stringify(words(current))
      ? optionsThatDiffer(options(saved), options(current))
      : `(${saved.map(given).join(' ')})`;
  return new UsageError(
    terminalSafe(
      `--resume: ${output} was written by another command ${what}: ` +
        'run that command to resume it, or pick another --output',
    ),
  );
}

/** `--perPage=5` as an identity records it: the option's name and its value's JSON. */
function optionOf(part: string): [name: string, json: string] {
  const at = part.indexOf('=');
  return [part.slice(2, at), part.slice(at + 1)];
}

/** `: the checkpoint was made with --year 2023, this run has --year 2024`, of each option that differs. */
function optionsThatDiffer(saved: Map<string, string>, current: Map<string, string>): string {
  const differ = [...new Set([...saved.keys(), ...current.keys()])]
    .filter((name) => saved.get(name) !== current.get(name))
    .sort();
  const shown = (options: Map<string, string>) =>
    differ.map((name) => optionWords(name, options.get(name))).join(', ');
  return `(the checkpoint was made with ${shown(saved)}; this run has ${shown(current)})`;
}

/** `--per-page 100`, `--all`, `no --year`: an option as the command line gives it, from its identity. */
function optionWords(name: string, json: string | undefined): string {
  const flag = `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  if (json === undefined) return `no ${flag}`;
  let value: unknown = json;
  try {
    value = JSON.parse(json);
  } catch {}
  if (value === true) return flag;
  return `${flag} ${Array.isArray(value) ? value.join(',') : String(value)}`;
}

/**
 * Whether the checkpoint at `path` says a run was left unfinished (one that cannot be read counts as
 * such).
 */
export async function holdsUnfinishedRun(path: string): Promise<boolean> {
  const text = await readText(path);
  if (text === undefined) return false;
  try {
    return (JSON.parse(text) as { complete?: unknown } | null)?.complete !== true;
  } catch {
    return true;
  }
}

/** Removes the checkpoint at `path`, if there is one. */
export async function removeCheckpoint(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!noFileThere.has((error as NodeJS.ErrnoException).code ?? '')) throw escaped(error);
  }
}

/** The checkpoint in `text`, or what is wrong with it. */
function parseCheckpoint(text: string, positions: PositionRange): Checkpoint | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!isRow(value)) return 'not an object';
  const { command, bytes, writer, position, complete, failures, failed } = value;
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string'))
    return 'command is not a list of strings';
  if (!isCount(bytes)) return 'bytes is not a whole number of 0 or more';
  if (typeof complete !== 'boolean') return 'complete is not true or false';
  if (!isCount(position)) return 'position is not a whole number of 0 or more';
  if (!complete && (position < positions.min || position > positions.max))
    return `position ${position} is not from ${positions.min} to ${positions.max}`;
  const wrong = writerProblem(writer);
  if (wrong !== undefined) return wrong;
  if (failures !== undefined && !isCount(failures)) return 'failures is not a whole number of 0 or more';
  if (failed !== undefined && !(isRow(failed) && typeof failed.path === 'string' && isCount(failed.bytes)))
    return 'failed is not a path and a byte length';
  return value as unknown as Checkpoint;
}

/** What is wrong with a checkpoint's list writer state, if anything. */
function writerProblem(writer: unknown): string | undefined {
  if (!isRow(writer)) return 'writer is not an object';
  if (!isCount(writer.count)) return 'writer.count is not a whole number of 0 or more';
  const { columns, widths, parquet } = writer;
  if (columns !== undefined && (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string')))
    return 'writer.columns is not a list of strings';
  if (
    widths !== undefined &&
    (!Array.isArray(widths) || !widths.every(isCount) || widths.length > (columns?.length ?? 0))
  )
    return 'writer.widths is not a width for each column';
  if (
    parquet !== undefined &&
    !(isRow(parquet) && isCount(parquet.offset) && typeof parquet.rowGroups === 'string')
  )
    return 'writer.parquet is not an offset and row groups';
  return undefined;
}

/**
 * The refusal of the checkpoint at `path` to resume from, saying `what` is wrong with it (escaped: the
 * checkpoint is a file anyone can edit, and names FILE).
 */
export function refusedCheckpoint(path: string, what: string): UsageError {
  return new UsageError(
    terminalSafe(
      `${path} is not a checkpoint this command can resume (${what}): ` +
        'add --overwrite (instead of --resume) to start again, or pick another --output',
    ),
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Errors that say no file can be at a path: none there, a file where a folder should be, a name too long. */
const noFileThere = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG']);

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (noFileThere.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw escaped(error);
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (noFileThere.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw escaped(error);
  }
}

/**
 * Node's error about a checkpoint's file (its name too long beside a long output name, a file where a
 * folder should be): a usage error, as an output that cannot be opened is, its words escaped since they
 * name the file. The original stays as the cause.
 */
function escaped(error: unknown): Error {
  const message = `cannot keep a checkpoint beside --output: ${(error as Error).message}`;
  return new UsageError(terminalSafe(message), { cause: error });
}
