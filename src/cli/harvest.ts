/**
 * What a list command writes through: the sink (stdout or `--output`), the format's list writer, the
 * progress line and, with `--output`, the checkpoint after each page or batch. A resumed run starts
 * from the checkpoint: the file cut back to its length, the writer in its state.
 */
import {
  type Checkpoint,
  holdsUnfinishedRun,
  type PositionRange,
  readCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';
import type { Context } from './context.js';
import { openSink } from './context.js';
import { UsageError } from './errors.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { chooseFormat, listWriter } from './output/formats.js';
import type { ProgressCounts } from './progress.js';
import { writerOptions } from './view.js';

export interface HarvestOptions extends OutputOptions {
  resume?: boolean;
  overwrite?: boolean;
}

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
  /**
   * Writes `records`, then the checkpoint at `position`, then redraws the progress line (`done`
   * defaults to the records written).
   */
  write(
    records: readonly Row[],
    position: number,
    counts: Omit<ProgressCounts, 'done'> & { done?: number },
  ): Promise<void>;
  /** Ends the document and marks the checkpoint complete. */
  finish(): Promise<void>;
  /** Erases the progress line and closes the file; always, after finish() or a failure. */
  close(): Promise<void>;
}

/**
 * The harvest of the command `identity`; `undefined` when `--resume` finds it complete already (the
 * caller has nothing to do).
 */
export async function openHarvest(
  context: Context,
  identity: readonly string[],
  options: HarvestOptions,
  unit: string,
  shape: HarvestShape,
  /** The fields of the command's records: the header of an empty csv or tsv. */
  columns?: readonly string[],
): Promise<Harvest | undefined> {
  const { io, progress } = context;
  const { output } = options;
  if (options.resume && output === undefined) throw new UsageError('--resume needs --output <file>');
  if (options.overwrite && output === undefined) throw new UsageError('--overwrite needs --output <file>');
  if (options.resume && options.overwrite)
    throw new UsageError('--resume and --overwrite exclude each other: give one');
  // A run left unfinished is not started over by accident: hours of harvest may be in FILE.
  if (output !== undefined && !options.resume && !options.overwrite && (await holdsUnfinishedRun(output)))
    throw new UsageError(
      `${output} holds an unfinished run: add --resume to continue, or --overwrite to start again`,
    );
  const saved =
    output !== undefined && options.resume
      ? await readCheckpoint(output, identity, shape.positions)
      : undefined;
  if (saved?.complete) {
    io.stderr.write(`${output} is complete: nothing left to resume\n`);
    return undefined;
  }
  const sink = await openSink(io, output, saved?.bytes ?? 0);
  const format = chooseFormat(options.format, sink.isTerminal, true, output);
  const view = writerOptions({ io, color: context.options.color, columns }, options, sink);
  const writer = listWriter(format, sink.columns, saved?.writer, view);
  const resumedDone =
    saved === undefined ? 0 : shape.counts === 'positions' ? saved.position : saved.writer.count;
  progress.begin(unit, resumedDone);
  const checkpoint = async (position: number, complete: boolean) => {
    if (output === undefined) return;
    const state: Checkpoint = {
      command: identity,
      bytes: sink.bytes,
      writer: writer.state(),
      position,
      complete,
    };
    await writeCheckpoint(output, state);
  };
  return {
    position: saved?.position,
    get count() {
      return writer.state().count;
    },
    async write(records, position, counts) {
      // Records and progress on one terminal: the line is erased first, or a row would follow it.
      if (sink.isTerminal) progress.clear();
      await sink.write(writer.rows(records));
      await checkpoint(position, false);
      progress.update({ ...counts, done: counts.done ?? writer.state().count });
    },
    async finish() {
      await sink.write(writer.end());
      await checkpoint(0, true);
    },
    async close() {
      progress.clear();
      await sink.close();
    },
  };
}
