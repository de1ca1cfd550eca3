/** A journal's score history as a terminal chart, oldest on the left, then as a table; or as rows. */
import { plot as asciiPlot } from 'asciichart';
import type { Row } from './cells.js';
import { terminalSafe } from './escape.js';
import { headerLine, layoutTable, recordLines, rowLines } from './table.js';

/** Rows of the chart, the axis line included. */
const height = 10;
/** Room between two dates under the chart. */
const dateGap = 2;

/**
 * The score record on a terminal: with `chart` (no `--format` given), the history drawn first; then
 * the other fields, then the history as a table, most recent first (the API promises no order, so
 * it is sorted, as the chart's points are).
 */
export function scoreTable(
  record: Row,
  columns: number | undefined,
  chart: boolean,
  paint?: (text: string) => string,
): string {
  const history = Array.isArray(record.history) ? byDate(record.history as Row[]).reverse() : [];
  const { history: _, ...rest } = record;
  const layout = layoutTable(['date', 'score'], history, columns);
  const drawn = chart ? scoreChart(history, columns) : '';
  return `${drawn}${recordLines(rest, columns)}\n${headerLine(layout, paint)}${rowLines(layout, history)}`;
}

/** The history as rows, one per point, for csv, tsv and jsonl: `journal_id`, `date`, `score`. */
export function scoreRows(journalId: number, record: Row): Row[] {
  const history = Array.isArray(record.history) ? (record.history as Row[]) : [];
  return history.map((point) => ({ journal_id: journalId, date: point.date, score: point.score }));
}

/**
 * The chart, as wide as `columns` allows, with dates under it; nothing when the history is too short
 * to draw. Whole scores get whole labels; no two labels of the axis read the same (see `yAxis`).
 */
export function scoreChart(history: readonly Row[], columns: number | undefined): string {
  // A chart reads left to right, oldest first.
  const points = byDate(history.filter((point) => typeof point.score === 'number'));
  if (points.length < 2) return '';
  const scores = points.map((point) => point.score as number);
  const axis = yAxis(scores);
  // asciichart writes its axis over the third column: a label of one character would be lost.
  const labelWidth = Math.max(2, ...scores.map((score) => axis.label(score).length));
  // A row is the label, a space, the axis, then one column per value.
  const room = Math.max(10, (columns ?? 80) - labelWidth - 2);
  const series = resample(axis.flat ? scores.map(() => scores[0]!) : scores, room);
  const plot = asciiPlot(series, {
    height: axis.rows,
    format: (value: number) => axis.label(value).padStart(labelWidth),
  });
  const at = (index: number) =>
    labelWidth + 1 + Math.round((index * (series.length - 1)) / (points.length - 1));
  return `${plot}\n${dateLine(points, at, labelWidth + 1 + series.length)}\n\n`;
}

/**
 * Score points oldest first, sorted by their dates (YYYY-MM-DD sorts as text): the API's sample lists
 * the most recent first, but the API promises no order.
 */
function byDate(points: readonly Row[]): Row[] {
  return [...points].sort((a, b) => String(a.date).localeCompare(String(b.date)));
}

/** The most decimals a label gets: a range finer than its last one is drawn flat. */
const maxDecimals = 10;

/**
 * The rows of the chart and the format of their labels, such that no two labels read the same: a
 * label differs from the next by the step between rows, so the step is made at least one unit of the
 * label's last digit. Whole scores get whole labels and, over a range under `height`, a row per
 * whole number; other scores get 2 decimals, more where the step between rows is finer.
 */
export function yAxis(scores: readonly number[]): {
  rows: number;
  label: (value: number) => string;
  /** The scores differ by less than the finest label tells apart: drawn as the line they look like. */
  flat: boolean;
} {
  const range = Math.max(...scores) - Math.min(...scores);
  const whole = scores.every(Number.isInteger);
  const finest = range / height;
  const decimals = whole
    ? 0
    : Math.min(maxDecimals, Math.max(2, finest > 0 ? Math.ceil(-Math.log10(finest) - 1e-9) : 2));
  const unit = 10 ** -decimals;
  // asciichart draws `rows` steps of range / rows: each at least `unit` (a flat line: one row).
  const steps = Math.min(height, Math.floor(range / unit + 1e-9));
  const label = (value: number) => (whole ? String(Math.round(value)) : value.toFixed(decimals));
  return { rows: Math.max(1, steps), label, flat: steps === 0 };
}

/** `values` stretched or thinned to `count` values, by straight lines between them. */
function resample(values: readonly number[], count: number): number[] {
  if (values.length === count) return [...values];
  return Array.from({ length: count }, (_, i) => {
    const position = (i * (values.length - 1)) / (count - 1);
    const before = Math.floor(position);
    const after = Math.min(values.length - 1, before + 1);
    return values[before]! + (values[after]! - values[before]!) * (position - before);
  });
}

/**
 * As many dates as fit under the chart without touching, each starting under its point; the first
 * and the last always, the last one ending at the chart's right edge if it must.
 */
function dateLine(points: readonly Row[], at: (index: number) => number, width: number): string {
  const dates = points.map((point) => terminalSafe(String(point.date ?? '')));
  const last = dates.length - 1;
  const lastStart = Math.max(0, Math.min(at(last), width - dates[last]!.length));
  let line = '';
  for (let i = 0; i < last; i++) {
    const start = at(i);
    const free = line === '' ? 0 : line.length + dateGap;
    if (start < free || start + dates[i]!.length + dateGap > lastStart) continue;
    line = line.padEnd(start) + dates[i];
  }
  return line.padEnd(lastStart) + dates[last];
}
