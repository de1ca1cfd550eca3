// How BENCHMARKS.md writes figures, rows of its Results table, and tables.
import type { Spread } from './lib.js';

export const x = (value: number, digits = 2) => `${value.toFixed(digits)}×`;
export const us = (value: number) => `${value.toFixed(0)} µs`;
export const ns = (value: number) => `${value.toFixed(1)} ns`;
export const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;
export const mb = (value: number) => `${value.toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
export const pct = (value: number, digits = 2) => `${(value * 100).toFixed(digits)} %`;
export const count = (n: number) => n.toLocaleString('en-US');
export const signed = (value: number, format: (n: number) => string) =>
  `${value < 0 ? '−' : '+'}${format(Math.abs(value))}`;
export const range = (s: Spread, format: (n: number) => string = x) =>
  `${format(s.median)} (${format(s.p25)} to ${format(s.p75)})`;
export const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

/** One row of the Results table; without `met`, a figure for reference, judged against nothing. */
export type Row = { what: string; figure: string; target?: string; met?: boolean };
/** A row judged `value ≤ limit` (`atMost`) or `value ≥ limit` (`atLeast`), the limit written `shown`. */
const judge =
  (sign: '≤' | '≥') =>
  (what: string, figure: string, value: number, limit: number, shown = x(limit)): Row => {
    const met = sign === '≤' ? value <= limit : value >= limit;
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
/** The item of `list` named `name`. */
export const named = <T extends { name: string }>(list: readonly T[], name: string) =>
  find(list, (item) => item.name === name, name);
