/**
 * What a list command writes through: the sink (stdout or `--output`), the format's list writer, the
 * progress line and, with `--output`, the checkpoint. A resumed run starts from the checkpoint: the
 * file cut back to its length, the writer in its state.
 */
import {
  type Checkpoint,
  type CheckpointAdditions,
  type PositionRange,
  readCheckpoint,
  removeCheckpoint,
} from './checkpoint.js';
import { sweepTemporaries, writeCheckpoint } from './checkpoint-file.js';
import { CheckpointSaves } from './checkpoint-saves.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import type { FileLock } from './file-lock.js';
import { claimOutput, harvestFile, openHarvestWriter } from './harvest-file.js';
import type { Row } from './output/cells.js';
import { terminalSafe, warningLine } from './output/escape.js';
import type { Format } from './output/formats.js';
import type { Sink } from './output/sink.js';
import { streamKind } from './output/stream-sink.js';
import type { ListWriter } from './output/writer-types.js';
import type { HarvestOptions } from './output-usage.js';
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
  const { fileFormat, identity, checkpoint } = await withCheckpoint(harvestFile(command, options), options);
  const claimed = output !== undefined && checkpoint !== undefined && fileFormat !== undefined;
  const lock = claimed ? await claimOutput(output, checkpoint, fileFormat === 'sqlite', options) : undefined;
  let saved: Checkpoint | undefined;
  let parts: Awaited<ReturnType<typeof openHarvestWriter>>;
  try {
    const recorded = { identity, typed: command };
    if (claimed) saved = await startingPoint(output, checkpoint, recorded, shape, fileFormat, options.resume);
    if (saved?.complete) {
      lock?.release();
      io.stderr.write(`${terminalSafe(`${output} is complete: nothing left to resume`)}\n`);
      return { finished: { failures: saved.failures, failed: saved.failed } };
    }
    parts = await openHarvestWriter(context, options, fileFormat, identity, saved, columns);
  } catch (error) {
    lock?.release();
    throw error;
  }
  // From here a stopped run can be resumed, if it keeps a checkpoint.
  io.harvest.opened = checkpoint !== undefined;
  const resumedDone =
    saved === undefined ? 0 : shape.counts === 'positions' ? saved.position : saved.writer.count;
  progress.begin(unit, resumedDone);
  const resumed = saved && { failures: saved.failures, failed: saved.failed };
  return harvestInto(context, { checkpoint, identity, lock }, parts, saved?.position, resumed);
}

/**
 * The checkpoint a run into `output` starts from: with `--resume`, the one saved (checked against the
 * command `recorded`); otherwise none, and the last run's is removed.
 */
async function startingPoint(
  output: string,
  checkpoint: string,
  recorded: { identity: readonly string[]; typed: readonly string[] },
  shape: HarvestShape,
  fileFormat: Format,
  resume: boolean | undefined,
): Promise<Checkpoint | undefined> {
  await sweepTemporaries(checkpoint);
  if (resume) return readCheckpoint(output, checkpoint, recorded, shape.positions, fileFormat);
  // Before FILE is cut: stopped before it saves its own, this run would resume from the last one's.
  await removeCheckpoint(checkpoint);
  return undefined;
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

/** The file a harvest writes: its checkpoint (if any), the command's identity there, and its lock. */
interface HarvestedFile {
  readonly checkpoint: string | undefined;
  readonly identity: readonly string[];
  readonly lock: FileLock | undefined;
}

/** The harvest writing through `writer` into `sink`, its checkpoint kept in the file's checkpoint if any. */
function harvestInto(
  context: Context,
  { checkpoint: checkpointFile, identity, lock }: HarvestedFile,
  { sink, writer }: { sink: Sink; writer: ListWriter },
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
    close: () => closeHarvest(context, checkpointFile, { saves, sink, writer, lock }, stopSavingOnPause),
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

/** What a harvest writes with, saves its checkpoint with, and holds its file with. */
interface HarvestParts {
  readonly saves: CheckpointSaves;
  readonly sink: Sink;
  readonly writer: ListWriter;
  readonly lock: FileLock | undefined;
}

/** {@link Harvest.close}: `stopSavingOnPause` is what {@link saveOnPause} returned. */
async function closeHarvest(
  { io, progress }: Context,
  checkpointFile: string | undefined,
  { saves, sink, writer, lock }: HarvestParts,
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
      await sink.close().finally(() => lock?.release());
    }
  }
}
