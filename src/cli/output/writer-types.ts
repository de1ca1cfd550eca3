/** What the list writers of every format share: their options, state and shape. */

import type { Row } from './cells.js';
import type { RecordKind } from './record-kinds.js';
import type * as Tables from './table.js';
import type { Kind } from './table.js';
import type { UnfitValues } from './typed-values.js';

/** Where a Parquet file stands: its length, and the metadata of its row groups (tagged JSON text). */
export interface ParquetState {
  offset: number;
  rowGroups: string;
}

/** What a list writer must remember across a resume. */
export interface ListState {
  count: number;
  columns?: string[] | undefined;
  widths?: number[] | undefined;
  kinds?: Kind[] | undefined;
  hidden?: string[] | undefined;
  /** Parquet: the file's whole row groups, for the footer that ends it. */
  parquet?: ParquetState | undefined;
}

/** How a writer shapes what it writes, beyond the format. */
export interface WriterOptions {
  /** `--fields`: these fields alone, in this order. */
  fields?: readonly string[] | undefined;
  /** The header of a csv or tsv list that comes back empty (with no `--fields`). */
  columns?: readonly string[] | undefined;
  /** `--raw-cells`: csv and tsv cells as they are, formulas included. */
  rawCells?: boolean | undefined;
  /** The text goes to a terminal: json, jsonl, csv and tsv are escaped as tables are. */
  terminal?: boolean | undefined;
  /** Styles a table's header (bold on a colour terminal). */
  paint?: ((text: string) => string) | undefined;
  /** The table's code, which the table format needs: see `tablesFor`. */
  tables?: TableCode | undefined;
  /** Parquet, SQLite: what the records are (their table, key, column types); see `recordKindOf`. */
  kind?: RecordKind | undefined;
  /** Parquet: records per row group (see `parquetRowGroupRows`). */
  rowGroupRows?: number | undefined;
  /** SQLite: the database file. */
  database?: string | undefined;
  /** Parquet, SQLite: what each page of records goes through first (the run's secrets cut out). */
  clean?: ((records: readonly Row[]) => readonly Row[]) | undefined;
  /** SQLite: the command's arguments (`journals papers 42` links its papers to journal 42). */
  args?: readonly string[] | undefined;
  /** Parquet, SQLite: where values their typed columns cannot hold, and elements not written, are counted. */
  unfit?: UnfitValues | undefined;
}

export type TableCode = typeof Tables;

/** What a writer hands the sink: text, or the bytes of a binary format. */
export type Chunk = string | Uint8Array;

/** Writes a list page by page; each method returns the text (or bytes) to append. */
export interface ListWriter {
  rows(records: readonly Row[]): Chunk;
  end(): Chunk;
  state(): ListState;
  /**
   * Records given but not yet in what `rows` returned (Parquet gathers a row group): a checkpoint
   * is noted only when none are, so it never counts records the file does not hold. None if absent.
   */
  pending?(): number;
  /** Releases what the writer holds open (SQLite's database); after `end()` or a failure. */
  close?(): void;
  /**
   * Text a terminal's writer holds back until the line it starts is ended (a json record before its
   * comma), handed over once: a run that stops before `end()` shows it still.
   */
  held?(): string;
  /** What to say on stderr once the writing is over (what it left out, or could not hold), or ''. */
  warning?(): string;
}

/** A writer of a text format. */
export interface TextListWriter extends ListWriter {
  rows(records: readonly Row[]): string;
  end(): string;
}
