/** What the list writers of every format share: their options, state and shape. */

import type { Row } from './cells.js';
import type * as Tables from './table.js';
import type { Kind } from './table.js';

/** What a list writer must remember across a resume. */
export interface ListState {
  count: number;
  columns?: string[] | undefined;
  widths?: number[] | undefined;
  kinds?: Kind[] | undefined;
  hidden?: string[] | undefined;
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
}

export type TableCode = typeof Tables;

/** Writes a list page by page; each method returns the text to append. */
export interface ListWriter {
  rows(records: readonly Row[]): string;
  end(): string;
  state(): ListState;
}
