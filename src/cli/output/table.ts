/**
 * Records as an aligned table for a terminal. Identifiers, numbers, booleans and dates are never cut:
 * a cut DOI or count is worse than none. Free text (titles, names, authors, nested values) shares the
 * room left and gives way first; when even that is not enough, the last columns are left out and a
 * line under the table names them. Every cell is shown through `terminalCell`, and widths are display
 * widths of what is shown.
 */
import { cellOf, type Row } from './cells.js';
import { terminalCell } from './escape.js';
import { displayWidth, pad, truncate } from './width.js';

const gap = '  ';
/** Free text is not narrowed below this (or its header, if shorter): less would say nothing. */
const textMinWidth = 12;

/** How a column is shown: text may be cut; the others are shown whole, numbers on the right. */
export type Kind = 'text' | 'identifier' | 'number' | 'boolean' | 'date';

/** The columns a table shows, their widths and kinds, and the columns left out for want of room. */
export interface Layout {
  columns: string[];
  widths: number[];
  kinds: Kind[];
  hidden: string[];
}

/** Names of string fields that identify rather than describe: never cut. */
const identifierName = /^(id|doi|issn|orcid|slug|quartile|flag|date)$|_id$|\.(id|doi|issn|orcid)$/;
/** Numbers that are not amounts: no digit grouping. */
const ungroupedName = /^(id|year)$|_id$|\.(id|year)$/;
const grouped = new Intl.NumberFormat('en', { maximumFractionDigits: 20 });
const isoDate = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+Z?)?$/;

/** The kind of `column`, from its name and the values `records` hold. */
export function kindOf(column: string, records: readonly Row[]): Kind {
  const values = records.map((record) => record[column]).filter((value) => value != null);
  if (values.length > 0 && values.every((value) => typeof value === 'number')) return 'number';
  if (values.length > 0 && values.every((value) => typeof value === 'boolean')) return 'boolean';
  if (values.every((value) => typeof value === 'string')) {
    if (values.length > 0 && values.every((value) => isoDate.test(value as string))) return 'date';
    if (identifierName.test(column)) return 'identifier';
  }
  return 'text';
}

/** A value as a table shows it: escaped, on one line, amounts grouped (`12,345`). */
export function tableCell(value: unknown, column: string): string {
  if (typeof value === 'number' && Number.isFinite(value) && !ungroupedName.test(column)) {
    return grouped.format(value);
  }
  return terminalCell(cellOf(value));
}

/** The layout of `columns` for `records` within `total` columns (`undefined`: no limit). */
export function layoutTable(columns: readonly string[], records: readonly Row[], total?: number): Layout {
  const kinds = columns.map((column) => kindOf(column, records));
  const natural = columns.map((column) =>
    Math.max(
      displayWidth(terminalCell(column)),
      ...records.map((record) => displayWidth(tableCell(record[column], column))),
    ),
  );
  const least = natural.map((width, i) =>
    kinds[i] === 'text' ? Math.min(width, Math.max(textMinWidth, displayWidth(columns[i]!))) : width,
  );
  const span = (widths: readonly number[]) =>
    widths.reduce((sum, width) => sum + width, 0) + gap.length * Math.max(0, widths.length - 1);
  let shown = columns.length;
  if (total !== undefined) {
    // The last columns go first, until what is left fits with its text at its narrowest.
    while (shown > 1 && span(least.slice(0, shown)) > total) shown -= 1;
  }
  const widths = natural.slice(0, shown);
  if (total !== undefined) {
    // The widest text column gives way one column at a time, down to its narrowest.
    let excess = span(widths) - total;
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < shown; i++) {
        if (kinds[i] === 'text' && widths[i]! > least[i]! && (widest === -1 || widths[i]! > widths[widest]!))
          widest = i;
      }
      if (widest === -1) break;
      widths[widest]! -= 1;
      excess -= 1;
    }
    // One column alone wider than the terminal: cut it, whatever it is.
    if (shown === 1 && widths[0]! > total) widths[0] = total;
  }
  return {
    columns: columns.slice(0, shown),
    widths,
    kinds: kinds.slice(0, shown),
    hidden: columns.slice(shown),
  };
}

/** The header line; `paint` styles it (bold on a colour terminal). */
export function headerLine(layout: Layout, paint: (text: string) => string = (text) => text): string {
  const names = layout.widths.map((width, i) =>
    align(truncate(terminalCell(layout.columns[i]!.toUpperCase()), width), width, layout.kinds[i]!),
  );
  return `${paint(names.join(gap).trimEnd())}\n`;
}

/** One line per record. */
export function rowLines(layout: Layout, records: readonly Row[]): string {
  let out = '';
  for (const record of records) {
    const cells = layout.widths.map((width, i) => {
      const column = layout.columns[i]!;
      const kind = layout.kinds[i]!;
      const cell = tableCell(record[column], column);
      // A later page's longer id or count widens its line rather than being cut.
      return align(kind === 'text' ? truncate(cell, width) : cell, width, kind);
    });
    out += `${cells.join(gap).trimEnd()}\n`;
  }
  return out;
}

/** The line under a table that left columns out, or nothing. */
export function hiddenLine(layout: Pick<Layout, 'hidden'>): string {
  const { hidden } = layout;
  if (hidden.length === 0) return '';
  const names = hidden.map(terminalCell).join(', ');
  return `${hidden.length} column${hidden.length === 1 ? '' : 's'} hidden (${names}): --fields to choose\n`;
}

/** One record as `field  value` lines; free text cut to the width left, the rest shown whole. */
export function recordLines(record: Row, total: number | undefined): string {
  const keys = Object.keys(record);
  const shownKeys = keys.map(terminalCell);
  const keyWidth = Math.max(0, ...shownKeys.map(displayWidth));
  const valueWidth =
    total === undefined ? Number.POSITIVE_INFINITY : Math.max(textMinWidth, total - keyWidth - gap.length);
  return keys
    .map((key, i) => {
      const value = tableCell(record[key], key);
      const cut = kindOf(key, [record]) === 'text' ? truncate(value, valueWidth) : value;
      return `${pad(shownKeys[i]!, keyWidth)}${gap}${cut}\n`;
    })
    .join('');
}

function align(text: string, width: number, kind: Kind): string {
  return pad(text, width, kind === 'number');
}
