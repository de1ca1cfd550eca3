/**
 * The output formats, for one record and for a list written page by page. A list writer's state
 * (records written, columns chosen) is saved in a checkpoint so a resumed run continues the same
 * document: no second header, the JSON array's commas in place, the table's columns kept.
 */
import { extname } from 'node:path';
import { asRows, columnsOf, LeftOutFields, type Row } from './cells.js';
import { delimitedWriter } from './delimited.js';
import { terminalDocument } from './escape.js';
import { projector } from './fields.js';
import { UnfitValues, unfitWarning } from './typed-values.js';
import type { ListState, ListWriter, TableCode, TextListWriter, WriterOptions } from './writer-types.js';

/** The formats written into a file of their own by their own code, never as text. */
export type DatabaseFormat = 'parquet' | 'sqlite';

export function isDatabaseFormat(format: Format): format is DatabaseFormat {
  return format === 'parquet' || format === 'sqlite';
}

/**
 * The writer of a database format: Parquet's row groups, SQLite's upserts. Loaded only then (the
 * Parquet writer, `node:sqlite`). Its `warning` says what its typed columns could not hold.
 */
export async function databaseWriter(
  format: DatabaseFormat,
  restored: ListState | undefined,
  options: WriterOptions,
): Promise<ListWriter> {
  const state: ListState = { count: 0, ...restored };
  const unfit = new UnfitValues();
  const typed = { ...options, unfit };
  const writer =
    format === 'parquet'
      ? await (await import('./parquet.js')).parquetListWriter(state, typed)
      : await (await import('./sqlite.js')).sqliteListWriter(state, typed);
  const { rows } = writer;
  const clean = options.clean ?? ((records: readonly Row[]) => records);
  const cleaned = (records: readonly Row[]) => rows.call(writer, clean(records));
  return Object.assign(writer, { rows: cleaned, warning: () => unfitWarning(unfit) });
}

export const formats = ['table', 'json', 'jsonl', 'csv', 'tsv', 'parquet', 'sqlite'] as const;
export type Format = (typeof formats)[number];

/**
 * The table's code when `format` is a table, else nothing. Loaded only then: it holds most of the
 * start-up of a command that writes anything else (string-width, the grapheme segmenter, number
 * formats and the locale data they load).
 */
export async function tablesFor(format: Format): Promise<TableCode | undefined> {
  return format === 'table' ? import('./table.js') : undefined;
}

function tablesOf(options: WriterOptions): TableCode {
  if (options.tables === undefined)
    throw new Error('the table format needs WriterOptions.tables (tablesFor)');
  return options.tables;
}

/** The format a file's extension names, if any. */
const byExtension: Record<string, Format> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
  '.sqlite': 'sqlite',
  '.sqlite3': 'sqlite',
  '.db': 'sqlite',
};

/**
 * `--format`, else the one `--output`'s extension names, else a table on a terminal, else JSON for
 * one record and JSON lines for a list.
 */
export function chooseFormat(
  given: Format | undefined,
  terminal: boolean,
  list: boolean,
  output?: string,
): Format {
  if (given !== undefined) return given;
  const named = output === undefined ? undefined : byExtension[extname(output).toLowerCase()];
  if (named !== undefined) return named;
  if (terminal) return 'table';
  return list ? 'jsonl' : 'json';
}

export function listWriter(
  format: TextFormat,
  width: number | undefined,
  restored?: ListState,
  options: WriterOptions = {},
): TextListWriter {
  const writer = documentWriter(format, width, restored, options);
  if (!options.terminal || format === 'table') return writer;
  return wholeLines({
    rows: (records) => terminalDocument(writer.rows(records)),
    end: () => terminalDocument(writer.end()),
    state: () => writer.state(),
    warning: writer.warning,
  });
}

/**
 * `writer` handing a terminal whole lines: a line left open (a json record, whose comma comes with the
 * next) is held back until the text that ends it. The progress line is drawn on the terminal's last
 * line between pages, and would erase a record still on it. A terminal's text is in no checkpoint, so
 * none counts what is held.
 */
function wholeLines(writer: TextListWriter): TextListWriter {
  let open = '';
  const take = () => {
    const text = open;
    open = '';
    return text;
  };
  return {
    rows: (records) => {
      const text = open + writer.rows(records);
      const ended = text.lastIndexOf('\n') + 1;
      open = text.slice(ended);
      return text.slice(0, ended);
    },
    end: () => take() + writer.end(),
    held: take,
    state: () => writer.state(),
    warning: writer.warning,
  };
}

/** The formats written as text. */
export type TextFormat = Exclude<Format, DatabaseFormat>;

function documentWriter(
  format: TextFormat,
  width: number | undefined,
  restored: ListState | undefined,
  options: WriterOptions,
): TextListWriter {
  const state: ListState = { count: 0, ...restored };
  const project = options.fields === undefined ? undefined : projector(options.fields);
  const parts: DocumentParts = {
    project,
    shaped: (records) => (project ? records.map(project) : records),
    columnsFrom: (records) => {
      // The first page decides the columns: a header cannot grow once written.
      state.columns ??= options.fields ? [...options.fields] : columnsOf(records);
      return state.columns;
    },
    counted: (records, text) => {
      state.count += records.length;
      return text;
    },
  };
  if (format === 'jsonl') return jsonLinesWriter(state, parts);
  if (format === 'json') return jsonArrayWriter(state, parts);
  return columnsWriter(format, state, width, parts, options);
}

/** JSON lines: one record a line, nothing to end the document. */
function jsonLinesWriter(state: ListState, { project, counted }: DocumentParts): TextListWriter {
  return {
    // A loop appending to one string: a long harvest spends much of its own time here.
    rows: (records) => {
      let text = '';
      if (project) for (const record of records) text += `${JSON.stringify(project(record))}\n`;
      else for (const record of records) text += `${JSON.stringify(record)}\n`;
      return counted(records, text);
    },
    end: () => '',
    state: () => state,
  };
}

/** One JSON array: each record's comma comes with the next, so the array ends whole at `end()`. */
function jsonArrayWriter(state: ListState, { shaped }: DocumentParts): TextListWriter {
  return {
    rows: (records) => {
      let text = '';
      for (const record of shaped(records)) {
        text += `${state.count === 0 ? '[\n' : ',\n'}${JSON.stringify(record)}`;
        state.count += 1;
      }
      return text;
    },
    end: () => (state.count === 0 ? '[]\n' : '\n]\n'),
    state: () => state,
  };
}

/** A table, csv or tsv. Without --fields, a field beyond the first page's columns is left out and counted. */
function columnsWriter(
  format: 'table' | 'csv' | 'tsv',
  state: ListState,
  width: number | undefined,
  parts: DocumentParts,
  options: WriterOptions,
): TextListWriter {
  const writer =
    format === 'table'
      ? tableWriter(state, width, parts, options)
      : delimitedWriter(format, state, parts.columnsFrom, options);
  const leftOut = options.fields === undefined ? new LeftOutFields() : undefined;
  let columns: ReadonlySet<string> | undefined;
  return {
    ...writer,
    rows: (elements) => {
      const records = asRows(elements);
      const text = writer.rows(records);
      // A table's hidden columns are said by its own last line. No columns yet: an empty page.
      if (state.columns !== undefined && leftOut !== undefined) {
        columns ??= new Set([...state.columns, ...(state.hidden ?? [])]);
        leftOut.note(records, columns);
      }
      return text;
    },
    warning: () => leftOut?.warning() ?? '',
  };
}

/** The table of a list, laid out by its first page. */
function tableWriter(
  state: ListState,
  width: number | undefined,
  { columnsFrom, shaped, counted }: DocumentParts,
  options: WriterOptions,
): TextListWriter {
  const { headerLine, hiddenLine, layoutTable, rowLines } = tablesOf(options);
  return {
    rows: (records) => {
      if (records.length === 0) return '';
      const header = state.columns === undefined;
      const columns = columnsFrom(records);
      const rows = shaped(records);
      if (state.widths === undefined) {
        const layout = layoutTable(columns, rows, width);
        Object.assign(state, layout);
      }
      const layout = tableLayout(state);
      const text = rowLines(layout, rows);
      return counted(records, header ? headerLine(layout, options.paint) + text : text);
    },
    end: () => hiddenLine({ hidden: state.hidden ?? [] }),
    state: () => state,
  };
}

/** What documentWriter's formats share: --fields' projection and shape, the run's columns, the count. */
interface DocumentParts {
  project: ((record: Row) => Row) | undefined;
  columnsFrom(records: readonly Row[]): string[];
  shaped(records: readonly Row[]): readonly Row[];
  counted(records: readonly Row[], text: string): string;
}

function tableLayout(state: ListState) {
  return {
    columns: state.columns ?? [],
    widths: state.widths ?? [],
    kinds: state.kinds ?? [],
    hidden: state.hidden ?? [],
  };
}

/** One record in `format`. */
export function formatRecord(
  format: TextFormat,
  record: Row,
  width: number | undefined,
  options: WriterOptions = {},
): string {
  const text = recordDocument(format, record, width, options);
  return options.terminal && format !== 'table' ? terminalDocument(text) : text;
}

function recordDocument(
  format: TextFormat,
  record: Row,
  width: number | undefined,
  options: WriterOptions,
): string {
  const shaped = options.fields === undefined ? record : projector(options.fields)(record);
  switch (format) {
    case 'json':
      return `${JSON.stringify(shaped, null, 2)}\n`;
    case 'jsonl':
      return `${JSON.stringify(shaped)}\n`;
    case 'csv':
    case 'tsv': {
      const writer = documentWriter(format, width, undefined, { ...options, fields: undefined });
      return writer.rows([shaped]);
    }
    case 'table':
      return tablesOf(options).recordLines(shaped, width);
  }
}
