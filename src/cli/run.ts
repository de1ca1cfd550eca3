/** Runs the commands that answer in one response: one record, or one whole list. */
import { checkpointPath, holdsUnfinishedRun, removeCheckpoint } from './checkpoint.js';
import type { Context, RunIO } from './context.js';
import { openSink } from './context.js';
import { UsageError } from './errors.js';
import { lockOutput } from './file-lock.js';
import { databaseFacts } from './harvest-file.js';
import { sayLastWord } from './last-word.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { terminalSafe } from './output/escape.js';
import {
  chooseFormat,
  type DatabaseFormat,
  databaseWriter,
  formatRecord,
  listWriter,
} from './output/formats.js';
import { nullSink, type Sink, wrapSink } from './output/sink.js';
import { writerOptions } from './view.js';

/** The facts of the view a command adds: its records' fields (the header of an empty list). */
export interface Shown {
  columns?: readonly string[];
  /** The command's path and arguments (`journals papers 42`): what a database format's rows are. */
  command?: readonly string[];
}

/** The format `--format` or `--output`'s extension names when it is a database's, else nothing. */
export function databaseFormatOf(options: OutputOptions): DatabaseFormat | undefined {
  if (options.output === undefined) return undefined;
  const format = chooseFormat(options.format, false, true, options.output);
  return format === 'parquet' || format === 'sqlite' ? format : undefined;
}

/** Writes `records` into the Parquet file or SQLite database of `--output`. */
async function writeDatabase(
  context: Context,
  options: OutputOptions,
  format: DatabaseFormat,
  records: readonly Row[],
  shown: Shown,
): Promise<void> {
  const output = options.output as string;
  const sink = format === 'sqlite' ? nullSink() : await openWholeOutput(context.io, output, 'parquet');
  try {
    const view = await writerOptions({ io: context.io, ...shown, format }, options, sink);
    const writer = await databaseWriter(format, undefined, {
      ...view,
      ...databaseFacts(shown.command ?? [], output, context.io.answerSecrets),
    });
    try {
      await sink.write(writer.rows(records));
      await sink.write(writer.end());
    } finally {
      writer.close?.();
      context.io.stderr.write(writer.warning?.() ?? '');
    }
  } finally {
    await sink.close();
  }
}

/**
 * Writes records into the Parquet file or SQLite database of `--output`, by one writer: each as its
 * rows where its views have them (a score's points, each with its journal's id), else whole. Resolves
 * to the number of rows written and what they are, for the last word (as csv says them).
 */
export async function writeRecordsInto(
  context: Context,
  options: OutputOptions,
  format: DatabaseFormat,
  records: ReadonlyArray<{ record: Row; views?: RecordViews | undefined }>,
  command?: readonly string[],
): Promise<{ count: number; unit: string }> {
  const rows: Row[] = [];
  for (const { record, views } of records)
    rows.push(...(views?.rows ? await views.rows.of(record) : [record]));
  const viewRows = records[0]?.views?.rows;
  await writeDatabase(context, options, format, rows, { columns: viewRows?.columns, command });
  return { count: rows.length, unit: viewRows === undefined ? 'records' : (viewRows.unit ?? 'rows') };
}

/**
 * Refuses, before any request, to write a file whole over a harvest left unfinished there: its
 * checkpoint would stay, and a `--resume` of it would cut this command's file by it. A database's
 * runs upsert, each under a checkpoint of its own command.
 */
export async function refuseOverUnfinished(options: OutputOptions): Promise<void> {
  const { output } = options;
  if (output === undefined || databaseFormatOf(options) === 'sqlite') return;
  // Nor over a harvest writing it now, before its first checkpoint is saved.
  (await lockOutput(output)).release();
  if (!(await holdsUnfinishedRun(checkpointPath(output)))) return;
  throw new UsageError(
    terminalSafe(
      `${output} holds an unfinished run: continue it with its command and --resume, or write elsewhere`,
    ),
  );
}

/**
 * Opens `output` for a command that writes it whole, once its answer is in, holding its lock until the
 * sink is closed: a harvest started meanwhile must not write it too. A finished harvest's checkpoint
 * there goes first: a `--resume` of that harvest would take this file for its own, done.
 */
export async function openWholeOutput(
  io: RunIO,
  output: string | undefined,
  writes: 'text' | 'parquet' = 'text',
): Promise<Sink> {
  if (output === undefined) return openSink(io, output, 0, writes);
  const lock = await lockOutput(output);
  try {
    await removeCheckpoint(checkpointPath(output));
    const sink = await openSink(io, output, 0, writes);
    return wrapSink(sink, { close: () => sink.close().finally(() => lock.release()) });
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Writes the list `fetch` resolves to; `unit` names its records (plural) in the last word. */
export async function runList(
  context: Context,
  options: OutputOptions,
  unit: string,
  fetch: () => Promise<readonly Row[]>,
  shown: Shown = {},
): Promise<void> {
  const database = databaseFormatOf(options);
  await refuseOverUnfinished(options);
  const records = await fetch();
  if (database !== undefined) {
    await writeDatabase(context, options, database, records, shown);
    sayLastWord(context, { count: records.length, unit, output: options.output });
    return;
  }
  const sink = await openWholeOutput(context.io, options.output);
  try {
    const format = chooseFormat(options.format, sink.isTerminal, true, options.output);
    if (format === 'parquet' || format === 'sqlite') throw new Error('unreachable: a database format');
    const facts = { io: context.io, color: context.options.color, ...shown, format };
    const view = await writerOptions(facts, options, sink);
    const writer = listWriter(format, sink.columns, undefined, view);
    await sink.write(writer.rows(records) + writer.end());
  } finally {
    await sink.close();
  }
  sayLastWord(context, { count: records.length, unit, output: options.output });
}

/** How a record command shows its record beyond the default views. */
export interface RecordViews {
  /**
   * Replaces the default `field  value` table; told whether the format was chosen for a terminal
   * (`--format` not given), it may then draw more.
   */
  table?: (
    record: Row,
    columns: number | undefined,
    chosen: boolean,
    paint: (text: string) => string,
  ) => string | Promise<string>;
  /**
   * The record's own top-level fields, where its rows have others: `--fields` may name only what the
   * chosen output holds.
   */
  fields?: readonly string[];
  /** The record as rows, for csv, tsv and jsonl, where the data has rows; with their fields. */
  rows?: {
    of: (record: Row) => Row[] | Promise<Row[]>;
    columns: readonly string[];
    /** What a row is (plural), for the last word, which counts the rows written. @default 'rows' */
    unit?: string;
  };
}

/**
 * Refuses, before any request, `--fields` naming what the chosen output does not hold: a record
 * written as rows (`journals score`: a row per point in csv, tsv, jsonl and the databases) has
 * other fields than the record written whole (json, a table). `key` is a field of the record too.
 */
export function checkFieldsFor(options: OutputOptions, views: RecordViews | undefined, key?: string): void {
  const [fields, rows] = [options.fields, views?.rows];
  if (fields === undefined || rows === undefined || views?.fields === undefined) return;
  const format = chooseFormat(options.format, false, false, options.output);
  const asRows = !(format === 'json' || format === 'table');
  const names = asRows ? rows.columns : [...(key === undefined ? [] : [key]), ...views.fields];
  const missing = fields.filter((field) => !names.includes(field.split('.')[0]!));
  if (missing.length === 0) return;
  const written = asRows
    ? `${format} writes ${rows.unit ?? 'rows'} as rows`
    : 'json and the table write the record';
  throw new UsageError(`--fields ${missing.join(',')}: ${written}, with the fields ${names.join(', ')}.`);
}

/** Writes the record `fetch` resolves to. */
export async function runRecord(
  context: Context,
  options: OutputOptions,
  fetch: () => Promise<Row>,
  views: RecordViews = {},
  command?: readonly string[],
): Promise<void> {
  const database = databaseFormatOf(options);
  checkFieldsFor(options, views);
  await refuseOverUnfinished(options);
  const record = await fetch();
  if (database !== undefined) {
    const written = await writeRecordsInto(context, options, database, [{ record, views }], command);
    sayLastWord(context, { ...written, output: options.output });
    return;
  }
  const sink = await openWholeOutput(context.io, options.output);
  let written = { count: 1, unit: 'record' };
  try {
    const format = chooseFormat(options.format, sink.isTerminal, false, options.output);
    if (format === 'parquet' || format === 'sqlite') throw new Error('unreachable: a database format');
    const columns = views.rows?.columns;
    const facts = { io: context.io, color: context.options.color, columns, format };
    const view = await writerOptions(facts, options, sink);
    if (format === 'table' && views.table && options.fields === undefined) {
      const paint = view.paint ?? ((text: string) => text);
      await sink.write(await views.table(record, sink.columns, options.format === undefined, paint));
    } else if (views.rows && (format === 'csv' || format === 'tsv' || format === 'jsonl')) {
      const writer = listWriter(format, sink.columns, undefined, view);
      const rows = await views.rows.of(record);
      await sink.write(writer.rows(rows) + writer.end());
      // The last word counts what the file holds: a row per point, not the one record they came from.
      written = { count: rows.length, unit: views.rows.unit ?? 'rows' };
    } else await sink.write(formatRecord(format, record, sink.columns, view));
  } finally {
    await sink.close();
  }
  // One record on a terminal needs no count; written to a file, it gets its line like a list.
  if (options.output !== undefined) sayLastWord(context, { ...written, output: options.output });
}

export type { Context };
