/**
 * The cells that hold DOIs in an `--input` text, by its kind: a list of one a line (whose first line
 * may be the header `doi`), a column of a csv or tsv table with a header, or a field of JSON lines or of
 * a JSON array's records (the tool's own `-o papers.json`, a reference manager's CSL JSON).
 */
import { parse } from 'csv-parse/sync';
import { UsageError } from './errors.js';
import { tsvText } from './output/cells.js';
import { terminalSafe } from './output/escape.js';

export type InputKind = 'csv' | 'tsv' | 'jsonl' | 'json' | 'lines';

/** The kind of a file of DOIs, from its name; for standard input and other names, from its first line. */
export function kindOf(name: string, text: string): InputKind {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.tsv')) return 'tsv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.txt')) return 'lines';
  const first = firstLine(text);
  if (first.startsWith('[')) return 'json';
  if (first.startsWith('{')) return 'jsonl';
  if (first.includes('\t')) return 'tsv';
  // A `,` or `;` of a header, not of a DOI (SICI DOIs hold both); `;` separates Excel's csv where `,`
  // is the decimal mark.
  const isDoi = /^(doi:|https?:|10\.)/i.test(first);
  if (!isDoi && (first.includes(',') || first.includes(';'))) return 'csv';
  return 'lines';
}

/** The first line of `text` that holds anything, its leading spaces left out. */
function firstLine(text: string): string {
  return text.trimStart().split(/\r\n|\r|\n/, 1)[0] ?? '';
}

/**
 * The lines of `text`, ended by LF, CRLF or a lone CR (Excel for Mac's CSV): the line break that ends
 * the last line starts no line of its own.
 */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/);
}

/** The cells of `text` that hold DOIs, as given (blank ones included). */
export function cellsOf(text: string, name: string, kind: InputKind, column?: string): string[] {
  const wanted = column ?? (kind === 'lines' ? undefined : 'doi');
  if (kind === 'lines' || wanted === undefined) return listCells(text, name, column);
  if (kind === 'jsonl') return fieldOf(jsonLines(text, name), name, wanted);
  // An array's strings are DOIs (`["10.1/a", …]`); a line of JSON lines is a record or nothing.
  if (kind === 'json') return fieldOf(jsonArray(text, name), name, wanted, true);
  return tableColumn(text, name, wanted, kind === 'tsv' ? '\t' : csvDelimiter(text));
}

/**
 * `;` for a csv whose header holds it and no comma outside its quoted names (Excel's CSV where `,` is
 * the decimal mark: `"Title, full";DOI`), else `,`.
 */
function csvDelimiter(text: string): ',' | ';' {
  const header = firstLine(text).replace(/"[^"]*"/g, '');
  return !header.includes(',') && header.includes(';') ? ';' : ',';
}

/** A list of one DOI a line: a first line `doi` (any case), or the column named, is a header. */
function listCells(text: string, name: string, column: string | undefined): string[] {
  const values = linesOf(text);
  const header = values[0]?.trim().toLowerCase();
  if (header === 'doi' || (column !== undefined && header === column.toLowerCase())) return values.slice(1);
  if (column !== undefined && values.length > 0)
    throw new UsageError(
      terminalSafe(
        `--input ${name} is a list of one DOI a line, with no column ${column}: leave --input-column out`,
      ),
    );
  return values;
}

/**
 * The cells of `column` (its header in any letter case) in a table. Only the header row is kept
 * whole: a row's other cells are dropped as it is read, so a wide export costs its DOI column.
 */
function tableColumn(text: string, name: string, column: string, delimiter: string): string[] {
  let at: number | undefined;
  // A tsv the tool wrote (a `--failed` file, `-o FILE.tsv`) escapes backslash, tab and line breaks.
  const read = delimiter === '\t' ? tsvText : (cell: string) => cell;
  const isEmpty = (row: string[]) => row.length === 1 && row[0] === '';
  const keep = (row: string[]): string[] | null => {
    // Blank rows before the header go; those after it are blank entries, as a list's blank lines are.
    if (at !== undefined) return [read(row[at] ?? '')];
    if (!isEmpty(row)) {
      const header = row.map((cell) => cell.trim());
      at = header.findIndex((cell) => cell.toLowerCase() === column.toLowerCase());
      if (at === -1) throw missingColumn(column, name, header);
    }
    return null;
  };
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      // Every line end at once: the parser otherwise takes the first row's for all, and a row
      // appended with another would run on into the row before it, its DOI lost.
      record_delimiter: ['\r\n', '\n', '\r'],
      quote: delimiter === '\t' ? false : '"',
      on_record: keep,
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // The parser's words may quote the file: escaped with its name.
    throw new UsageError(terminalSafe(`cannot read --input ${name}: ${(error as Error).message}`));
  }
  return rows.map((row) => row[0] ?? '');
}

/** The records of JSON lines; a blank line is `undefined` (a blank entry). */
function jsonLines(text: string, name: string): unknown[] {
  return linesOf(text).map((line, index) => {
    if (line.trim() === '') return undefined;
    try {
      return JSON.parse(line);
    } catch {
      throw new UsageError(`--input ${terminalSafe(name)} line ${index + 1} is not JSON`);
    }
  });
}

/** The elements of a JSON array: records, or DOIs as strings. */
function jsonArray(text: string, name: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${terminalSafe(name)} is not JSON (its first line opens a JSON array)`);
  }
  if (!Array.isArray(value))
    throw new UsageError(`--input ${terminalSafe(name)} is JSON, but no array of records or DOIs`);
  return value;
}

/**
 * The text of `field` (its name in any letter case, as a table's column is found) in each record, a
 * string standing for itself with `strings`; anything else without the field as text is a blank entry.
 * Records none of which has the field are refused with the fields they have.
 */
function fieldOf(records: readonly unknown[], name: string, field: string, strings = false): string[] {
  const seen = new Set<string>();
  const lower = field.toLowerCase();
  let found = false;
  let objects = 0;
  const values = records.map((record) => {
    if (strings && typeof record === 'string') return record;
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return '';
    objects++;
    const keys = Object.keys(record);
    for (const key of keys) seen.add(key);
    const key = keys.includes(field) ? field : keys.find((each) => each.toLowerCase() === lower);
    if (key === undefined) return '';
    found = true;
    const value = (record as Record<string, unknown>)[key];
    return typeof value === 'string' ? value : '';
  });
  // Records that are all blank (a search that found nothing) hold no DOIs, whatever their field would be.
  if (objects > 0 && !found) throw missingColumn(field, name, [...seen]);
  return values;
}

function missingColumn(column: string, name: string, columns: readonly string[]): UsageError {
  const has = columns.length === 0 ? 'its records have no fields' : `its columns: ${columns.join(', ')}`;
  return new UsageError(
    terminalSafe(`--input ${name} has no column ${column} (${has}); name one with --input-column`),
  );
}
