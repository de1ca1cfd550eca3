/** The csv and tsv list writers. */
import { csvCell, type Row, tsvCell } from './cells.js';
import { fieldReader } from './fields.js';
import type { ListState, TextListWriter, WriterOptions } from './writer-types.js';

/**
 * csv (RFC 4180, CRLF; test/cli/output/formats.test.ts holds it to csv-stringify's output byte for
 * byte) or tsv, each value through `csvCell` or `tsvCell`. Written here, a field at a time into one
 * string: a general CSV library's per-record machinery would cost more than the export's own work.
 */
export function delimitedWriter(
  format: 'csv' | 'tsv',
  state: ListState,
  columnsFrom: (records: readonly Row[]) => string[],
  options: WriterOptions,
): TextListWriter {
  const raw = options.rawCells === true;
  const cell = format === 'csv' ? csvCell(raw) : tsvCell(raw);
  const [separator, lineEnd] = format === 'csv' ? [',', '\r\n'] : ['\t', '\n'];
  const { fields } = options;
  // With --fields each column is read from the record by its path, with no record projected first.
  const readerOf = (column: string): ((record: Row) => unknown) => {
    if (fields === undefined) return (record) => record[column];
    return fields.includes(column) ? fieldReader(column) : () => undefined;
  };
  let readers: ((record: Row) => unknown)[] | undefined;
  const readersOf = (columns: readonly string[]) => (readers ??= columns.map(readerOf));
  const rows = (columns: readonly string[], records: readonly Row[], header: boolean): string => {
    let text = '';
    if (header) {
      for (let i = 0; i < columns.length; i++) text += (i === 0 ? '' : separator) + cell(columns[i]);
      text += lineEnd;
    }
    const read = readersOf(columns);
    const lone = format === 'csv' && read.length === 1;
    for (const record of records) {
      const start = text.length;
      for (let i = 0; i < read.length; i++) text += (i === 0 ? '' : separator) + cell(read[i]!(record));
      // A lone empty field would make a blank line, which pandas skips: quoted, as Python's csv writes it.
      if (lone && text.length === start) text += '""';
      text += lineEnd;
    }
    return text;
  };
  return {
    rows: (records) => {
      if (records.length === 0) return '';
      const header = state.columns === undefined;
      const text = rows(columnsFrom(records), records, header);
      state.count += records.length;
      return text;
    },
    // An empty result still gets its header: pandas and DuckDB read an empty table, not an error.
    end: () => {
      if (state.columns !== undefined) return '';
      const columns = options.fields ?? options.columns;
      if (columns === undefined) return '';
      state.columns = [...columns];
      return rows(state.columns, [], true);
    },
    state: () => state,
  };
}
