/** Records as cells: the columns of a batch, and each value as one line of text. */
import { grouped } from '../counts.js';
import { warningLine } from './escape.js';

export type Row = Record<string, unknown>;

/** Whether a value is a record: an object, not an array. */
export function isRow(value: unknown): value is Row {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Each element as a row of cells: one that is no object (the shape of a search's results is not
 * published, so a server may list DOIs as strings) as a row of one cell, `value`.
 */
export function asRows(elements: readonly unknown[]): readonly Row[] {
  return elements.every(isRow)
    ? elements
    : elements.map((element) => (isRow(element) ? element : { value: element }));
}

/** The fields of records that no column holds, counted by name: what a run warns it left out. */
export class LeftOutFields {
  readonly #counts = new Map<string, number>();

  /** `why`: what set the columns, as the warning says it. */
  constructor(readonly why = 'the first page set the columns') {}

  /** Counts each field of `records` not among `columns`. */
  note(records: readonly Row[], columns: ReadonlySet<string>): void {
    for (const record of records) {
      for (const name in record)
        if (!columns.has(name)) this.#counts.set(name, (this.#counts.get(name) ?? 0) + 1);
    }
  }

  /** `warning: …` naming each field left out and how often, or '' when none was. */
  warning(): string {
    if (this.#counts.size === 0) return '';
    const what = [...this.#counts]
      .map(([name, count]) => `${JSON.stringify(name)} ${grouped(count)}`)
      .join(', ');
    return warningLine(`fields with no column, left out (${this.why}): ${what}`);
  }
}

/** The keys of `records`, in the order first seen. */
export function columnsOf(records: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const record of records) {
    if (record !== null && typeof record === 'object') for (const key of Object.keys(record)) seen.add(key);
  }
  return [...seen];
}

/** A value as a cell: text as is, nested values as JSON, a missing value empty. */
export function cellOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** What a spreadsheet would run as a formula: a string starting with `=`, `+`, `-`, `@`, tab or CR. */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * A cell for a file a spreadsheet may open (OWASP's CSV injection rule): a string field that would
 * start a formula gets a leading `'`, so `=HYPERLINK(…)` shows as text. Numbers are never strings
 * here, so `-3` stays a number.
 */
export function spreadsheetCell(value: unknown): string {
  const text = cellOf(value);
  return typeof value === 'string' && formulaStart.test(text) ? `'${text}` : text;
}

/**
 * What makes a csv field need quotes: the delimiter, a quote or a line break, a lone CR or LF too
 * (csv-stringify's default leaves one bare, and pandas then reads the row as two).
 */
const quotable = /[,"\r\n]/;
/** A string a csv field changes under the formula rule: a formula start, or something to quote. */
const csvChanged = /^[=+\-@\t\r]|[,"\r\n]/;
/** A string a tsv field changes: something to escape; with the formula rule, a formula start too. */
const tsvChanged = /[\\\t\n\r]/;
const tsvChangedFormula = /^[=+\-@]|[\\\t\n\r]/;

/**
 * One value as a csv field (RFC 4180: quoted when it must be, quotes doubled); `raw` (`--raw-cells`)
 * without the formula rule.
 */
export function csvCell(raw: boolean): (value: unknown) => string {
  return cellWriter(raw ? quotable : csvChanged, csvQuoted, raw);
}

function csvQuoted(text: string): string {
  return quotable.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One value as a tsv field (see `tsvField`); `raw` without the formula rule. */
export function tsvCell(raw: boolean): (value: unknown) => string {
  return cellWriter(raw ? tsvChanged : tsvChangedFormula, tsvField, raw);
}

/**
 * A writer of one format's cells. A number or a string `changed` says nothing of, nearly every
 * field of a long export, is written after one test at most; the rest is `encode`d.
 */
function cellWriter(
  changed: RegExp,
  encode: (text: string) => string,
  raw: boolean,
): (value: unknown) => string {
  return (value) => {
    if (typeof value === 'number') return String(value);
    // The formula rule is for strings alone: other values need only the encoding.
    if (typeof value !== 'string') return encode(cellOf(value));
    if (!changed.test(value)) return value;
    return encode(raw || !formulaStart.test(value) ? value : `'${value}`);
  };
}

/** A TSV field: backslash, tab, newline and carriage return written as `\\`, `\t`, `\n`, `\r`. */
export function tsvField(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (char) => tsvEscapes[char]!) : text;
}

const tsvEscapes: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const tsvUnescapes: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

/** The text of a TSV field {@link tsvField} wrote: its `\\`, `\t`, `\n` and `\r` read back. */
export function tsvText(field: string): string {
  return field.includes('\\')
    ? field.replace(/\\([\\tnr])/g, (_, char: string) => tsvUnescapes[char]!)
    : field;
}
