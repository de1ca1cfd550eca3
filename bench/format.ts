/** How BENCHMARKS.md writes figures: shared by bench/report.ts and bench/report-more.ts. */
import type { Spread } from './lib.js';

export const x = (value: number, digits = 2) => `${value.toFixed(digits)}×`;
export const us = (value: number) => `${value.toFixed(0)} µs`;
export const ns = (value: number) => `${value.toFixed(1)} ns`;
export const ms = (value: number, digits = 0) => `${value.toFixed(digits)} ms`;
export const mb = (value: number) => `${value.toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
export const pct = (value: number, digits = 2) => `${(value * 100).toFixed(digits)} %`;
export const signed = (value: number, format: (n: number) => string) =>
  `${value < 0 ? '−' : '+'}${format(Math.abs(value))}`;
export const range = (s: Spread, format: (n: number) => string) =>
  `${format(s.median)} (${format(s.p25)} to ${format(s.p75)})`;
export const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
export const count = (n: number) => n.toLocaleString('en-US');

export function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** The one item of `list` that `pick` accepts; a missing one is a bench bug, said plainly. */
export function find<T>(list: readonly T[], pick: (item: T) => boolean, what: string): T {
  const found = list.find(pick);
  if (found === undefined) throw new Error(`BENCHMARKS.md: no result for ${what}`);
  return found;
}
