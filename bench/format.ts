// How BENCHMARKS.md writes figures, rows of its Results table, and tables.
import type { compare, raceRuns, Spread } from './lib.js';

export const x = (value: number, digits = 2) => `${value.toFixed(digits)}×`;
export const us = (value: number) => `${value.toFixed(0)} µs`;
export const ns = (value: number) => `${value.toFixed(1)} ns`;
export const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;
export const mb = (value: number) => `${value.toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
export const pct = (value: number, digits = 2) => `${(value * 100).toFixed(digits)} %`;
export const count = (n: number) => n.toLocaleString('en-US');
type Fmt = (n: number) => string;
export const signed = (value: number, format: Fmt) => `${value < 0 ? '−' : '+'}${format(Math.abs(value))}`;
export const range = (s: Spread, format: Fmt = x) =>
  `${format(s.median)} (${format(s.p25)} to ${format(s.p75)})`;
export const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

/** One row of the Results table; without `met`, a figure for reference, judged against nothing. */
export type Row = { what: string; figure: string; target?: string; met?: boolean };
/** A row judged `value ≤ limit` or `≥`, the limit written `shown`; met only if the run's own checks (`also`) hold. */
const judge =
  (sign: '≤' | '≥') =>
  (what: string, figure: string, value: number, limit: number, shown = x(limit), also = true): Row => {
    const met = also && (sign === '≤' ? value <= limit : value >= limit);
    return { what, figure, target: `${sign} ${shown}`, met };
  };
export const [atMost, atLeast] = [judge('≤'), judge('≥')];

export function table(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** The one item of `list` that `pick` accepts; a missing one is a bench bug, said plainly. */
export function find<T>(list: readonly T[], pick: (item: T) => boolean, what: string): T {
  const found = list.find(pick);
  if (found === undefined) throw new Error(`BENCHMARKS.md: no result for ${what}`);
  return found;
}
export const named = <T extends { name: string }>(list: readonly T[], name: string) =>
  find(list, (item) => item.name === name, name);
/** The paired ratio `of ÷ to` of a comparison; without `to`, the one of `of`. */
export const ratioOf = <T extends { of: string; to: string }>(list: readonly T[], of: string, to?: string) =>
  find(list, (r) => r.of === of && (to === undefined || r.to === to), `${of} ÷ ${to}`);

/** What `compare` and `raceRuns` give back, as the tables below read them. */
type Compared = Pick<Awaited<ReturnType<typeof compare>>, 'contenders' | 'ratios'>;
type Raced = Pick<Awaited<ReturnType<typeof raceRuns>>, 'contenders' | 'speedups'>;

/** A contender table (wall per operation with its spread, CPU) and a paired ratio table, from `compare`. */
export function timesTables(r: Compared, what = 'request') {
  const rows = r.contenders.map((c) => [c.name, range(c.wall, us), us(c.cpu.median)]);
  const ratios = r.ratios.map((q) => [`${q.of} ÷ ${q.to}`, range(q.wall), x(q.cpu.median)]);
  return `${table(['contender', `wall per ${what} (p25 to p75)`, `CPU per ${what}`], rows)}

${table(['ratio (paired per round)', 'wall (p25 to p75)', 'CPU'], ratios)}`;
}

type Spreads = ReadonlyArray<{ name: string; wall: Spread }>;
/** Each contender's spread, written by `format`, and its entry of `beside` if it has one, by `besideFormat`. */
export function spreadTable(head: string[], list: Spreads, format: Fmt, beside: Spreads, besideFormat: Fmt) {
  const rows = list.map((c) => {
    const other = beside.find((b) => b.name === c.name);
    return [c.name, range(c.wall, format), other ? range(other.wall, besideFormat) : ''];
  });
  return table(head, rows);
}

/** A contender table from `raceRuns`: each one's time, and the first's time over its own, written by `speed`. */
export function speedTable(r: Raced, head: [string, string, string], speed: Fmt = x) {
  const rows = r.contenders.map((c) => {
    const s = r.speedups.find((q) => q.name === c.name)?.speedup;
    return [c.name, ms(c.ms), s === undefined ? '1' : speed(s)];
  });
  return table(head, rows);
}
