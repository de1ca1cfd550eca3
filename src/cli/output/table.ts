/**
 * Records as an aligned table for a terminal: the columns share its width, and a cell too long
 * for its column is cut with `…`.
 */
import { cellOf, type Row } from './cells.js';

const gap = '  ';
/** No column is made narrower than this to fit, unless its header is shorter. */
const minWidth = 6;
/** A column wider than this only wastes room other columns could use. */
const maxWidth = 60;

/** Widths for `columns` fitting `records` within `total` characters (`undefined`: no limit). */
export function fitWidths(
  columns: readonly string[],
  records: readonly Row[],
  total: number | undefined,
): number[] {
  const widths = columns.map((column) =>
    Math.min(
      maxWidth,
      Math.max(column.length, ...records.map((record) => oneLine(cellOf(record[column])).length)),
    ),
  );
  if (total === undefined) return widths;
  const room = () => widths.reduce((sum, width) => sum + width, 0) + gap.length * (widths.length - 1);
  // Narrow the widest column one character at a time: long titles give way before short ids.
  while (room() > total) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const floor = Math.min(minWidth, columns[i]!.length);
      if (widths[i]! > floor && (widest === -1 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest === -1) break;
    widths[widest]! -= 1;
  }
  // Still too wide: the last columns are left out rather than wrapping every line.
  while (widths.length > 1 && room() > total) widths.pop();
  return widths;
}

/** The header line and its rule. */
export function headerLines(columns: readonly string[], widths: readonly number[]): string {
  const names = widths.map((width, i) => pad(truncate(columns[i]!.toUpperCase(), width), width));
  return `${names.join(gap).trimEnd()}\n`;
}

/** One line per record. */
export function rowLines(
  columns: readonly string[],
  widths: readonly number[],
  records: readonly Row[],
): string {
  let out = '';
  for (const record of records) {
    const cells = widths.map((width, i) => pad(truncate(oneLine(cellOf(record[columns[i]!])), width), width));
    out += `${cells.join(gap).trimEnd()}\n`;
  }
  return out;
}

/** One record as `field  value` lines, the values cut to the width left. */
export function recordLines(record: Row, total: number | undefined): string {
  const keys = Object.keys(record);
  const keyWidth = Math.max(0, ...keys.map((key) => key.length));
  const valueWidth =
    total === undefined ? Number.POSITIVE_INFINITY : Math.max(minWidth, total - keyWidth - gap.length);
  return keys
    .map((key) => `${pad(key, keyWidth)}${gap}${truncate(oneLine(cellOf(record[key])), valueWidth)}\n`)
    .join('');
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ');
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}
