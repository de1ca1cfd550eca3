/**
 * What a list command writes through: the sink (stdout or `--output`), the format's list writer, the
 * progress line and, with `--output`, the checkpoint. A resumed run starts from the checkpoint: the
 * file cut back to its length, the writer in its state.
 */
import { basename } from 'node:path';
import {
  type Checkpoint,
  type CheckpointAdditions,
  holdsUnfinishedRun,
  type PositionRange,
  readCheckpoint,
  removeCheckpoint,
} from './checkpoint.js';
import { sweepTemporaries, temporaryPath, writeCheckpoint } from './checkpoint-file.js';
import { CheckpointSaves } from './checkpoint-saves.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { checkOutputOption, type HarvestOptions, harvestFile, openHarvestWriter } from './harvest-file.js';
import type { Row } from './output/cells.js';
import { terminalSafe, warningLine } from './output/escape.js';
import type { Sink } from './output/sink.js';
import { streamKind } from './output/stream-sink.js';
import type { ListWriter } from './output/writer-types.js';
import type { Progress, ProgressCounts } from './progress.js';
import { withoutSecrets } from './secrets.js';

/**
 * How often the checkpoint is saved while pages arrive. Saving it after every page would cost a fast
 * harvest more than its pages do; a run killed outright loses at most this much, fetched again on resume.
 */
export const checkpointEveryMs = 1000;

/** What the harvest of a command counts: its positions (pages, DOIs) and what progress counts as done. */
export interface HarvestShape {
  readonly positions: PositionRange;
  /** `records` (walks: records written) or `positions` (get-many: DOIs done). */
  readonly counts: 'records' | 'positions';
}

export interface Harvest {
  /** Where the saved run stopped (a page, or DOIs done), if resuming. */
  readonly position: number | undefined;
  /** Records written, the resumed ones included. */
  readonly count: number;
  /** What the command kept of its own in the checkpoint resumed, if resuming. */
  readonly resumed: CheckpointAdditions | undefined;
  /**
   * What the command keeps of its own in each checkpoint noted from now on, as of the records written
   * (a checkpoint is noted when records reach the file, and may be saved later).
   */
  keep(additions: () => CheckpointAdditions): void;
  /**
   * Writes `records`, notes the checkpoint at `position` (saved after the first page, then at most
   * every `checkpointEveryMs`), then redraws the progress line (`done` defaults to the records written).
   */
  write(
    records: readonly Row[],
    position: number,
    counts: Omit<ProgressCounts, 'done'> & { done?: number },
  ): Promise<void>;
  /**
   * Erases the progress line from a terminal it shares, ends the document, marks the checkpoint
   * complete, and tells the command's context its output is whole ({@link Context.complete}).
   */
  finish(): Promise<void>;
  /**
   * Erases the progress line, saves the checkpoint noted last if it is not saved yet (a run stopped by
   * Ctrl-C or an error continues from the last records written), and closes the file; always, after
   * finish() or a failure.
   */
  close(): Promise<void>;
}

/** What `--resume` found of a run that finished: nothing is left to do, and what it kept of its own. */
export interface FinishedRun {
  readonly finished: CheckpointAdditions;
}

/**
 * The harvest of the command `command` (its identity), or the finished run `--resume` found (the
 * caller has nothing left to do but report what that run kept: get-many's failures).
 */
export async function openHarvest(
  context: Context,
  command: readonly string[],
  options: HarvestOptions,
  unit: string,
  shape: HarvestShape,
  /** The fields of the command's records: the header of an empty csv or tsv. */
  columns?: readonly string[],
): Promise<Harvest | FinishedRun> {
  const { io, progress } = context;
  const { output } = options;
  checkHarvestOptions(options);
  const { fileFormat, identity, checkpoint } = await withCheckpoint(harvestFile(command, options), options);
  let saved: Checkpoint | undefined;
  if (output !== undefined && checkpoint !== undefined) {
    refuseUnsavable(output, checkpoint);
    await refuseUnfinished(output, checkpoint, fileFormat === 'sqlite', options);
    await sweepTemporaries(checkpoint);
    if (options.resume)
      saved = await readCheckpoint(
        output,
        checkpoint,
        { identity, typed: command },
        shape.positions,
        fileFormat,
      );
    // Before FILE is cut: stopped before it saves its own, this run would resume from the last one's.
    else await removeCheckpoint(checkpoint);
  }
  if (saved?.complete) {
    io.stderr.write(`${terminalSafe(`${output} is complete: nothing left to resume`)}\n`);
    return { finished: { failures: saved.failures, failed: saved.failed } };
  }
  const { sink, writer } = await openHarvestWriter(context, options, fileFormat, identity, saved, columns);
  // From here a stopped run can be resumed, if it keeps a checkpoint.
  io.harvest.opened = checkpoint !== undefined;
  const resumedDone =
    saved === undefined ? 0 : shape.counts === 'positions' ? saved.position : saved.writer.count;
  progress.begin(unit, resumedDone);
  const resumed = saved && { failures: saved.failures, failed: saved.failed };
  return harvestInto(context, checkpoint, identity, sink, writer, saved?.position, resumed);
}

/**
 * `file` with the checkpoint kept beside `--output`: none for a pipe or a device, which no run can
 * resume (so `--resume` into one is refused), and whose folder (`/dev`) is no place for it.
 */
async function withCheckpoint<File extends { checkpoint: string | undefined }>(
  file: File,
  { output, resume }: HarvestOptions,
): Promise<File | (File & { checkpoint: undefined })> {
  if (output === undefined || (await streamKind(output)) === undefined) return file;
  if (resume)
    throw new UsageError(
      terminalSafe(`--resume: ${output} is a pipe or a device: no run can be resumed into it`),
    );
  return { ...file, checkpoint: undefined };
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

/** The usage errors of `--output`, `--resume` and `--overwrite`, before anything is read or written. */
function checkHarvestOptions(options: HarvestOptions): void {
  const { output, resume, overwrite } = options;
  checkOutputOption(options);
  if (resume && output === undefined) throw new UsageError('--resume needs --output <file>');
  if (overwrite && output === undefined) throw new UsageError('--overwrite needs --output <file>');
  if (resume && overwrite) throw new UsageError('--resume and --overwrite exclude each other: give one');
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

/** The harvest writing through `writer` into `sink`, its checkpoint kept in `checkpointFile` if any. */
function harvestInto(
  context: Context,
  checkpointFile: string | undefined,
  identity: readonly string[],
  sink: Sink,
  writer: ListWriter,
  position: number | undefined,
  resumed: CheckpointAdditions | undefined,
): Harvest {
  const { io, progress, complete } = context;
  let additions = (): CheckpointAdditions => resumed ?? {};
  // The writer's state holds the records' field names (a table's columns): a server that names a
  // field after the key must not put it in the checkpoint either.
  const save = (file: string, checkpoint: Checkpoint) =>
    writeCheckpoint(file, withoutSecrets(checkpoint, io.answerSecrets));
  const saves = new CheckpointSaves(checkpointFile, sink, io.now, checkpointEveryMs, save);
  // The state as of the records written so far: the writer's state object changes as it writes on.
  // A shallow copy is enough, taken after every page: a writer replaces its lists, never edits them.
  const noted = (position: number, complete: boolean): Checkpoint => ({
    ...additions(),
    command: identity,
    bytes: sink.bytes,
    writer: { ...writer.state() },
    position,
    complete,
  });
  const stopSavingOnPause = saveOnPause(progress, saves);
  // Output and progress on one terminal: the line is erased first, or what is written would follow it.
  const eraseProgress = () => {
    if (sink.isTerminal) progress.clear();
  };
  return {
    position,
    get count() {
      return writer.state().count;
    },
    resumed,
    keep(given) {
      additions = given;
    },
    async write(records, position, counts) {
      eraseProgress();
      await sink.write(writer.rows(records));
      // Records a writer still gathers (a Parquet row group) are not in the file: not yet a checkpoint.
      if (checkpointFile !== undefined && (writer.pending?.() ?? 0) === 0)
        await saves.note(noted(position, false));
      progress.update({ ...counts, done: counts.done ?? writer.state().count });
    },
    async finish() {
      // The end is output as records are (a table's hidden-columns line, an empty csv's header).
      saves.stop();
      eraseProgress();
      await sink.write(writer.end());
      await saves.save(noted(0, true));
      complete();
    },
    close: () => closeHarvest(context, checkpointFile, { saves, sink, writer }, stopSavingOnPause),
  };
}

/**
 * A rate-limit wait may be the last moment before a kill: what is written is in the checkpoint first.
 * Returns what stops listening and waits for the save a wait started.
 */
function saveOnPause(progress: Progress, saves: CheckpointSaves): () => Promise<void> {
  let pausedSave: Promise<void> | undefined;
  const unlisten = progress.onPause(() => {
    pausedSave = saves.saveNoted();
  });
  return async () => {
    unlisten();
    await pausedSave;
  };
}

/** What a harvest writes with, and saves its checkpoint with. */
interface HarvestParts {
  readonly saves: CheckpointSaves;
  readonly sink: Sink;
  readonly writer: ListWriter;
}

/** {@link Harvest.close}: `stopSavingOnPause` is what {@link saveOnPause} returned. */
async function closeHarvest(
  { io, progress }: Context,
  checkpointFile: string | undefined,
  { saves, sink, writer }: HarvestParts,
  stopSavingOnPause: () => Promise<void>,
): Promise<void> {
  saves.stop();
  await stopSavingOnPause();
  // An interval's save may still be writing: it lands (or fails, and is noted again) first.
  await saves.settled();
  progress.clear();
  io.stderr.write(writer.warning?.() ?? '');
  // A run stopped before finish() still shows the last record it received.
  const held = writer.held?.();
  if (held) await sink.write(held);
  try {
    // Only after a failure or Ctrl-C: its own failure is told, not put in place of theirs.
    if (saves.unsaved !== undefined) await saves.save(saves.unsaved);
  } catch (error) {
    const what = `${checkpointFile} was not saved: ${(error as Error).message}`;
    io.stderr.write(warningLine(what));
  } finally {
    try {
      writer.close?.();
    } finally {
      await sink.close();
    }
  }
}
