/** A journal's score history as a terminal chart, oldest on the left, then as a table. */
import { plot as asciiPlot } from 'asciichart';
import type { Row } from './cells.js';
import { fitWidths, headerLines, recordLines, rowLines } from './table.js';

/** The axis labels asciichart puts left of the plot take about this many columns. */
const axisWidth = 12;

/**
 * The score record on a terminal: with `chart` (no `--format` given), the history drawn first; then
 * the other fields, then the history as a table, most recent first as the service sends it.
 */
export function scoreTable(record: Row, columns: number | undefined, chart: boolean): string {
  const history = Array.isArray(record.history) ? (record.history as Row[]) : [];
  const { history: _, ...rest } = record;
  const historyColumns = ['date', 'score'];
  const widths = fitWidths(historyColumns, history, columns);
  const drawn = chart ? scoreChart(history, columns) : '';
  return `${drawn}${recordLines(rest, columns)}\n${headerLines(historyColumns, widths)}${rowLines(historyColumns, widths, history)}`;
}

/** The chart and the dates it spans, or nothing when the history is too short to draw. */
export function scoreChart(history: readonly Row[], columns: number | undefined): string {
  // The service sends the most recent first; a chart reads left to right, oldest first.
  const points = history.filter((point) => typeof point.score === 'number').reverse();
  if (points.length < 2) return '';
  // Wider than the terminal, the lines would wrap into noise: every n-th point instead.
  const room = Math.max(10, (columns ?? 80) - axisWidth);
  const step = Math.ceil(points.length / room);
  const series = points.filter((_, i) => i % step === 0).map((point) => point.score as number);
  const plot = asciiPlot(series, { height: 10 });
  const span = `${String(points[0]?.date ?? '')} … ${String(points.at(-1)?.date ?? '')}`;
  return `${plot}\n${' '.repeat(axisWidth)}${span}\n\n`;
}
