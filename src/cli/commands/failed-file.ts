/**
 * `papers get-many --failed FILE`: a tsv of the DOIs that failed, with their error class and message,
 * kept in step with the harvest's checkpoint so that a resumed run lists no failure twice.
 */
import { type FileHandle, open, stat, truncate } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MetricError } from '../../index.js';
import { type CheckpointAdditions, isCheckpointOf } from '../checkpoint.js';
import { cannotWrite, OutputFileError, UsageError } from '../errors.js';
import { fileOf, oneFile } from '../file-identity.js';
import { cellOf, spreadsheetCell, tsvField } from '../output/cells.js';
import { databaseAt } from '../output/database-files.js';
import { terminalSafe } from '../output/escape.js';

/** The `--failed` file: its handle, and its length, which each checkpoint keeps. */
export type FailedFile = { readonly path: string; readonly handle: FileHandle; bytes: number };

/**
 * Refuses, before anything is read or written, a `--failed` of `-`, which reads as standard output as
 * `--output -` does (a file of that name is `./-`), and one that names the file of `--output` or its
 * checkpoint: the two would be written through two handles, and one would write over the other.
 */
export function checkFailedPath(failed: string | undefined, output: string | undefined): void {
  if (failed === '-') throw new UsageError('--failed - is standard output: give --failed a file instead');
  // `--output -` is refused as standard output, later and in its own words.
  if (failed === undefined || output === undefined || output === '-') return;
  const [path, of] = [fileOf(failed), fileOf(output)];
  const clash = oneFile(failed, output)
    ? `--failed and --output name one file (${failed})`
    : isCheckpointOf(path, of) && `--failed ${failed} is the checkpoint of --output ${output}`;
  if (clash) throw new UsageError(terminalSafe(`${clash}: give --failed a file of its own`));
}

/**
 * Refuses an `--input` naming the file of `--output` or `--failed`: the list would be written over as
 * it is read, and a stopped run could not be resumed from it.
 */
export function checkInputApart(
  input: string | undefined,
  output: string | undefined,
  failed: string | undefined,
) {
  if (input === undefined || input === '-') return;
  for (const [flag, file] of [
    ['--output', output],
    ['--failed', failed],
  ] as const) {
    if (file === undefined || file === '-' || !oneFile(file, input)) continue;
    throw new UsageError(
      terminalSafe(`--input and ${flag} name one file (${input}): give each a file of its own`),
    );
  }
}

/** Refuses a `--failed` that holds a SQLite database or a Parquet file, which its tsv would write over. */
export async function refuseDatabaseAsFailed(failed: string | undefined): Promise<void> {
  const database = failed === undefined ? undefined : await databaseAt(failed);
  if (database === undefined) return;
  const refusal = `--failed ${failed} is ${database.what}, which this run would write over: give --failed a file of its own`;
  throw new UsageError(terminalSafe(refusal));
}

/**
 * `--failed FILE`: a tsv of doi, error and message, its header written when the file is new or empty.
 * A resume cuts it back to the length its checkpoint kept, so no failure is in it twice; FILE is
 * written afresh on a fresh start, or when no run so far wrote it.
 */
export async function openFailed(path: string, saved: CheckpointAdditions | undefined): Promise<FailedFile> {
  try {
    const kept = keptBytes(path, saved);
    // A file it cannot stat, it cannot write either: open says why.
    const size = kept === 0 ? 0 : ((await stat(path).catch(() => undefined))?.size ?? 0);
    const bytes = Math.min(kept ?? size, size);
    if (bytes < size) await truncate(path, bytes);
    const failed = { path, handle: await open(path, bytes === 0 ? 'w' : 'a'), bytes };
    if (bytes === 0) await appendFailed(failed, 'doi\terror\tmessage\n');
    return failed;
  } catch (error) {
    throw cannotWrite(UsageError, '--failed', path, error);
  }
}

/**
 * The bytes of `--failed` a run keeps: the length the checkpoint kept of this file; none on a fresh
 * start or when the checkpoint kept another's or none; all when it kept no tally (no line is lost).
 */
function keptBytes(path: string, saved: CheckpointAdditions | undefined): number | undefined {
  if (saved === undefined) return 0;
  if (saved.failures === undefined) return undefined;
  return saved.failed !== undefined && resolve(saved.failed.path) === resolve(path) ? saved.failed.bytes : 0;
}

/** Appends `lines`; a file that cannot take them (a full disk) fails as an `--output` file does. */
export async function appendFailed(failed: FailedFile, lines: string): Promise<void> {
  if (lines === '') return;
  try {
    await failed.handle.appendFile(lines);
  } catch (error) {
    throw cannotWrite(OutputFileError, '--failed', failed.path, error);
  }
  failed.bytes += Buffer.byteLength(lines);
}

export function failedLine(doi: string, error: MetricError, raw: boolean): string {
  const cell = raw ? cellOf : spreadsheetCell;
  return `${[doi, error.name, error.message].map((value) => tsvField(cell(value))).join('\t')}\n`;
}
