/**
 * The four output formats, for one record and for a list written page by page. A list writer's
 * state (records written, columns chosen) is saved in a checkpoint so a resumed run continues the
 * same document: no second CSV header, the JSON array's commas in place, the table's columns kept.
 */
import { stringify } from 'csv-stringify/sync';
import { cellOf, columnsOf, type Row } from './cells.js';
import { fitWidths, headerLines, recordLines, rowLines } from './table.js';

export const formats = ['table', 'json', 'jsonl', 'csv'] as const;
export type Format = (typeof formats)[number];

/** What a list writer must remember across a resume. */
export interface ListState {
  count: number;
  columns?: string[] | undefined;
  widths?: number[] | undefined;
}

/** Writes a list page by page; each method returns the text to append. */
export interface ListWriter {
  rows(records: readonly Row[]): string;
  end(): string;
  state(): ListState;
}

/** `--format`, or the default: a table on a terminal, else JSON for one record and JSON lines for a list. */
export function chooseFormat(given: Format | undefined, terminal: boolean, list: boolean): Format {
  if (given !== undefined) return given;
  if (terminal) return 'table';
  return list ? 'jsonl' : 'json';
}

export function listWriter(format: Format, width: number | undefined, restored?: ListState): ListWriter {
  const state: ListState = { count: 0, ...restored };
  const columnsFrom = (records: readonly Row[]): string[] => {
    // The first page decides the columns: a header cannot grow once written.
    state.columns ??= columnsOf(records);
    return state.columns;
  };
  const counted = (records: readonly Row[], text: string): string => {
    state.count += records.length;
    return text;
  };
  switch (format) {
    case 'jsonl':
      return {
        rows: (records) => counted(records, records.map((record) => `${JSON.stringify(record)}\n`).join('')),
        end: () => '',
        state: () => state,
      };
    case 'json':
      return {
        rows: (records) => {
          let text = '';
          for (const record of records) {
            text += `${state.count === 0 ? '[\n' : ',\n'}${JSON.stringify(record)}`;
            state.count += 1;
          }
          return text;
        },
        end: () => (state.count === 0 ? '[]\n' : '\n]\n'),
        state: () => state,
      };
    case 'csv':
      return {
        rows: (records) => {
          if (records.length === 0) return '';
          const header = state.columns === undefined;
          const columns = columnsFrom(records);
          return counted(records, csvRows(columns, records, header));
        },
        end: () => '',
        state: () => state,
      };
    case 'table':
      return {
        rows: (records) => {
          if (records.length === 0) return '';
          const header = state.columns === undefined;
          const columns = columnsFrom(records);
          state.widths ??= fitWidths(columns, records, width);
          const text = rowLines(columns, state.widths, records);
          return counted(records, header ? headerLines(columns, state.widths) + text : text);
        },
        end: () => '',
        state: () => state,
      };
  }
}

/** One record in `format`. */
export function formatRecord(format: Format, record: Row, width: number | undefined): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(record, null, 2)}\n`;
    case 'jsonl':
      return `${JSON.stringify(record)}\n`;
    case 'csv':
      return csvRows(Object.keys(record), [record], true);
    case 'table':
      return recordLines(record, width);
  }
}

function csvRows(columns: readonly string[], records: readonly Row[], header: boolean): string {
  const rows = records.map((record) => columns.map((column) => cellOf(record[column])));
  // RFC 4180: CRLF line breaks, fields quoted when they hold a comma, a quote or a line break.
  return stringify(header ? [columns as string[], ...rows] : rows, { record_delimiter: 'windows' });
}
