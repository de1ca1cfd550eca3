/**
 * A record command given several ids (`journals score 2 5 7`): one document of every record, each
 * with its id, as a list is written (json an array, jsonl a line each, csv and tsv one header; a
 * Parquet file or SQLite table their rows, as one id's). An id the API does not know (404) is named
 * on stderr and the others are still written; the command then exits 3. Any other error (a 401, a
 * rate limit, the network) ends the command as it would for one id.
 */
import type { Context } from './context.js';
import { grouped } from './counts.js';
import { failureLine, PartialFailureError, whereTold } from './errors.js';
import { sayLastWord } from './last-word.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { terminalSafe } from './output/escape.js';
import { chooseFormat, formatRecord, listWriter, type TextFormat } from './output/formats.js';
import type { Sink } from './output/sink.js';
import type { WriterOptions } from './output/writer-types.js';
import {
  checkFieldsFor,
  databaseFormatOf,
  openWholeOutput,
  type RecordViews,
  refuseOverUnfinished,
  writeRecordsInto,
} from './run.js';
import { writerOptions } from './view.js';

/** Thrown when some of several ids were not found: the others are written, the exit code is 3. */
export class RecordsFailedError extends PartialFailureError {
  override readonly name = 'RecordsFailedError';
}

/** How a command with several ids writes them. */
export interface ManyRecords {
  /** The field holding each record's id (`id`, `journal_id`): put first where the record lacks it. */
  readonly key: string;
  readonly fetch: (id: string) => Promise<Row>;
  /** The views of the record of `id`, as for one id. */
  readonly views?: ((id: string) => RecordViews) | undefined;
  /** The command's path and ids (`journals score 2 5 7`): what a database's rows are. */
  readonly command?: readonly string[] | undefined;
  /** The record's top-level fields: the header of a csv or tsv when no id is found. */
  readonly columns?: readonly string[] | undefined;
}

/** Fetches the record of each of `ids`, in order, and writes them as one document. */
export async function runRecords(
  context: Context,
  options: OutputOptions,
  ids: readonly string[],
  many: ManyRecords,
): Promise<void> {
  const database = databaseFormatOf(options);
  checkFieldsFor(options, many.views?.(ids[0] ?? ''), many.key);
  await refuseOverUnfinished(options);
  const failures: string[] = [];
  try {
    const found = await fetchEach(ids, many.fetch, failures);
    const rowsOf = ({ id, record }: (typeof found)[number]) => ({ record, views: many.views?.(id) });
    const written =
      database === undefined
        ? await writeFound(context, options, ids, found, many)
        : await writeRecordsInto(context, options, database, found.map(rowsOf), many.command);
    if (options.output !== undefined)
      sayLastWord(context, { ...written, output: options.output, notFound: failures.length });
  } finally {
    // Said even when a later id's error (a 400, the network) ends the command: no 404 goes untold.
    if (!context.options.quiet) for (const failure of failures) context.io.stderr.write(`${failure}\n`);
  }
  if (failures.length === 0) return;
  throw new RecordsFailedError(
    `${grouped(failures.length)} of ${grouped(ids.length)} ids were not found${whereTold(context.options.quiet)}`,
  );
}

/** Writes the records found as one document to the command's output: what the last word counts. */
async function writeFound(
  context: Context,
  options: OutputOptions,
  ids: readonly string[],
  found: ReadonlyArray<{ id: string; record: Row }>,
  many: ManyRecords,
): Promise<{ count: number; unit: string }> {
  const sink = await openWholeOutput(context.io, options.output);
  try {
    const format = chooseFormat(options.format, sink.isTerminal, false, options.output) as TextFormat;
    const columns = many.views?.(ids[0] ?? '').rows?.columns ?? many.columns;
    const facts = { io: context.io, color: context.options.color, columns, format };
    const view = await writerOptions(facts, options, sink);
    const shown = { all: options.fields === undefined, chart: options.format === undefined };
    return await writeRecords(sink, format, found, many, view, shown);
  } finally {
    await sink.close();
  }
}

/**
 * The records of the ids found, each with its id; a line for each id the API does not know is put in
 * `failures` as it is met, so the caller has them even when a later id's error is thrown.
 */
async function fetchEach(
  ids: readonly string[],
  fetch: (id: string) => Promise<Row>,
  failures: string[],
): Promise<Array<{ id: string; record: Row }>> {
  const found: Array<{ id: string; record: Row }> = [];
  // One after another: ids are few, and a rate limit met by one is waited out before the next.
  for (const id of ids) {
    try {
      found.push({ id, record: await fetch(id) });
    } catch (error) {
      if (!isNotFound(error)) throw error;
      failures.push(failureLine(id, error));
    }
  }
  return found;
}

/** A 404: the id is not the API's; every other error is the command's failure. */
function isNotFound(error: unknown): error is Error {
  return error instanceof Error && (error as { status?: unknown }).status === 404;
}

/** Writes `found` in `format`: what the last word counts (records, or the rows they became). */
async function writeRecords(
  sink: Sink,
  format: TextFormat,
  found: ReadonlyArray<{ id: string; record: Row }>,
  many: ManyRecords,
  view: WriterOptions,
  /** All fields (no `--fields`); the format chosen for a terminal, so a view may draw more. */
  shown: { all: boolean; chart: boolean },
): Promise<{ count: number; unit: string }> {
  const keyed = found.map(({ id, record }) => withKey(record, many.key, id));
  const views = found.map(({ id }) => many.views?.(id));
  const table = views[0]?.table;
  // On a terminal each record as for one id, under a line naming it; a command's own view (a score's
  // chart and table) shows every field, so with --fields its records make one table.
  if (format === 'table' && (table === undefined || shown.all)) {
    const paint = view.paint ?? ((text: string) => text);
    for (const [index, { id, record }] of found.entries()) {
      const heading = `${index === 0 ? '' : '\n'}${paint(terminalSafe(`${many.key} ${id}`))}\n`;
      const own = views[index]?.table ?? table;
      const body = own
        ? await own(record, sink.columns, shown.chart, paint)
        : formatRecord('table', record, sink.columns, view);
      await sink.write(heading + body);
    }
    return { count: found.length, unit: 'records' };
  }
  // The first id's view when none was found: its unit and columns are the command's all the same.
  const rows = (views[0] ?? many.views?.(''))?.rows;
  const writer = listWriter(format, sink.columns, undefined, view);
  if (rows !== undefined && (format === 'csv' || format === 'tsv' || format === 'jsonl')) {
    let count = 0;
    for (const [index, { record }] of found.entries()) {
      const points = await (views[index]?.rows ?? rows).of(record);
      count += points.length;
      await sink.write(writer.rows(points));
    }
    await sink.write(writer.end());
    return { count, unit: rows.unit ?? 'rows' };
  }
  await sink.write(writer.rows(keyed) + writer.end());
  return { count: keyed.length, unit: 'records' };
}

/** `record` with `key` first when it lacks it (a score record has no journal id of its own). */
function withKey(record: Row, key: string, id: string): Row {
  return Object.hasOwn(record, key) ? record : { [key]: Number(id), ...record };
}
