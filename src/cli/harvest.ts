/**
 * What a list command writes through: the sink (stdout or `--output`), the format's list writer, the
 * progress line and, with `--output`, the checkpoint after each page or batch. A resumed run starts
 * from the checkpoint: the file cut back to its length, the writer in its state.
 */
import { type Checkpoint, readCheckpoint, writeCheckpoint } from './checkpoint.js';
import { openSink } from './context.js';
import { UsageError } from './errors.js';
import type { IO } from './io.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { chooseFormat, listWriter } from './output/formats.js';
import { Progress, type ProgressCounts } from './progress.js';
import { type ViewFacts, writerOptions } from './view.js';

export interface HarvestOptions extends OutputOptions {
  resume?: boolean;
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
  io: IO,
  identity: readonly string[],
  options: HarvestOptions,
  unit: string,
  quiet: boolean,
  shown: Omit<ViewFacts, 'io'> = {},
): Promise<Harvest | undefined> {
  const { output } = options;
  if (options.resume && output === undefined) throw new UsageError('--resume needs --output <file>');
  const saved = output !== undefined && options.resume ? await readCheckpoint(output, identity) : undefined;
  if (saved?.complete) {
    io.stderr.write(`${output} is complete: nothing left to resume\n`);
    return undefined;
  }
  const sink = await openSink(io, output, saved?.bytes ?? 0);
  const format = chooseFormat(options.format, sink.isTerminal, true, output);
  const view = writerOptions({ io, ...shown }, options, sink);
  const writer = listWriter(format, sink.columns, saved?.writer, view);
  const progress = Progress.for(io.stderr, quiet, unit, io.now);
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
