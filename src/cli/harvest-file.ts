/**
 * The file a harvest writes (`--output`): its format, the command's identity and checkpoint there,
 * and the sink and list writer that write it.
 */
import { basename } from 'node:path';
import { type Checkpoint, checkpointPath, holdsUnfinishedRun } from './checkpoint.js';
import { temporaryPath } from './checkpoint-file.js';
import { type Context, openSink } from './context.js';
import { UsageError } from './errors.js';
import { type FileLock, lockOutput, noLock } from './file-lock.js';
import type { Row } from './output/cells.js';
import { terminalSafe } from './output/escape.js';
import { chooseFormat, databaseWriter, type Format, isDatabaseFormat, listWriter } from './output/formats.js';
import { recordKindOf } from './output/record-kinds.js';
import { nullSink, type Sink } from './output/sink.js';
import type { ListWriter } from './output/writer-types.js';
import type { HarvestOptions } from './output-usage.js';
import { type Secrets, withoutSecrets } from './secrets.js';
import { writerOptions } from './view.js';

/**
 * The sink and the list writer of a harvest. A database's writer is made first: the state it resumes
 * from is checked as it is made (a Parquet file's row groups), and one refused leaves the file uncut.
 * A file is no terminal, so its view needs no sink.
 */
export async function openHarvestWriter(
  { io, options: globals }: Context,
  options: HarvestOptions,
  fileFormat: Format | undefined,
  identity: readonly string[],
  saved: Checkpoint | undefined,
  columns: readonly string[] | undefined,
): Promise<{ sink: Sink; writer: ListWriter }> {
  const { output } = options;
  const facts = { io, color: globals.color, columns };
  if (fileFormat !== undefined && isDatabaseFormat(fileFormat)) {
    const view = await writerOptions({ ...facts, format: fileFormat }, options, nullSink());
    const database = { ...databaseFacts(identity, output, io.answerSecrets), rowGroupRows: options.rowGroup };
    const writer = await databaseWriter(fileFormat, saved?.writer, { ...view, ...database });
    try {
      // A database is written by its own code: its file is never cut back as a text file is.
      if (fileFormat === 'sqlite') return { sink: nullSink(), writer };
      return { sink: await openSink(io, output, saved?.bytes ?? 0, 'parquet'), writer };
    } catch (error) {
      writer.close?.();
      throw error;
    }
  }
  const sink = await openSink(io, output, saved?.bytes ?? 0);
  try {
    const format = chooseFormat(options.format, sink.isTerminal, true, output);
    if (isDatabaseFormat(format)) throw new Error('unreachable: a database format without --output');
    const view = await writerOptions({ ...facts, format }, options, sink);
    return { sink, writer: listWriter(format, sink.columns, saved?.writer, view) };
  } catch (error) {
    await sink.close();
    throw error;
  }
}

/**
 * The file `--output` names, if any: its format, the command's identity as its checkpoint records
 * it, and where that checkpoint is. A database's is the command's own (see `checkpointPath`): its
 * runs upsert, so another command's unfinished run neither blocks this one nor is replaced by it.
 */
export function harvestFile(command: readonly string[], { format, output }: HarvestOptions) {
  if (output === undefined) return { fileFormat: undefined, identity: command, checkpoint: undefined };
  // A file's format is the same given or told by its extension (the sink of a file is no terminal).
  const fileFormat = chooseFormat(format, false, true, output);
  const identity = fileIdentity(command, fileFormat);
  const checkpoint = checkpointPath(output, fileFormat === 'sqlite' ? identity : undefined);
  return { fileFormat, identity, checkpoint };
}

/**
 * The identity a file's checkpoint records: the command's, with the format the file is written in,
 * given or not (`-o a.jsonl` writes what `--format jsonl -o a.jsonl` does), and `--row-group` only for
 * Parquet, the one format whose file it shapes.
 */
function fileIdentity(command: readonly string[], format: Format): string[] {
  const counts = (part: string) =>
    !part.startsWith('--format=') && (format === 'parquet' || !part.startsWith('--rowGroup='));
  return [...command.filter(counts), `--format=${JSON.stringify(format)}`];
}

/**
 * What a database format knows of the command `identity`: its records' kind, its file, its arguments,
 * and how each page is cleaned of a key an answer echoed (`answerSecrets`) before it is written.
 */
export function databaseFacts(
  identity: readonly string[],
  output: string | undefined,
  answerSecrets: Secrets,
) {
  return {
    kind: recordKindOf(identity),
    database: output,
    args: identity.slice(2).filter((part) => !part.startsWith('--')),
    clean: (records: readonly Row[]) => withoutSecrets(records, answerSecrets),
  };
}

/**
 * Makes `output` this run's, before anything is read from it or requested: a name whose checkpoint
 * could never be saved is refused; a file (not a database) is locked against another run writing it;
 * and a run left unfinished there is refused unless resumed or overwritten (after the lock: the
 * checkpoint of a harvest still running is no stopped run to resume). `ofCommand`: the checkpoint is
 * the command's own (a database's).
 */
export async function claimOutput(
  output: string,
  checkpoint: string,
  ofCommand: boolean,
  options: HarvestOptions,
): Promise<FileLock> {
  refuseUnsavable(output, checkpoint);
  // A database's runs upsert, each under a checkpoint of its own command: they share it as SQLite
  // lets them (as `sync` does), where two runs writing one text or Parquet file would tear it.
  const lock = ofCommand ? noLock : await lockOutput(output);
  try {
    await refuseUnfinished(output, checkpoint, ofCommand, options);
    return lock;
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Refuses, before any request, an output whose checkpoint could never be saved: most file systems hold
 * names of 255 bytes at most, and the checkpoint's name (or its temporary file's) may pass that.
 */
function refuseUnsavable(output: string, checkpoint: string): void {
  if (Buffer.byteLength(basename(temporaryPath(checkpoint))) <= 255) return;
  const name = basename(checkpoint);
  throw new UsageError(
    terminalSafe(`--output ${output}: too long a name to keep ${name} beside it (255 bytes at most)`),
  );
}

/**
 * A run left unfinished is not started over by accident: hours of harvest may be in FILE. A
 * checkpoint of the command's own (a database's) names it: other commands' runs there do not count.
 */
async function refuseUnfinished(
  output: string,
  checkpoint: string,
  ofCommand: boolean,
  { resume, overwrite }: HarvestOptions,
): Promise<void> {
  if (resume || overwrite || !(await holdsUnfinishedRun(checkpoint))) return;
  const run = ofCommand ? 'an unfinished run of this command' : 'an unfinished run';
  throw new UsageError(
    terminalSafe(`${output} holds ${run}: add --resume to continue, or --overwrite to start again`),
  );
}
