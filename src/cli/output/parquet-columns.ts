/**
 * A row group's columns as hyparquet-writer takes them, with each column chunk's statistics made in
 * the same pass: the library's own pass compares every value again, through a generic comparison
 * that costs more than the encoding of most columns.
 */
import { cellOf } from './cells.js';
import type { ColumnType } from './record-kinds.js';

/** A column chunk's statistics as hyparquet-writer keeps them (and writes them into the footer). */
export interface ChunkStatistics {
  min_value?: unknown;
  max_value?: unknown;
  null_count: bigint;
  nan_count?: bigint;
}

export interface ColumnChunk {
  data: unknown[];
  statistics: ChunkStatistics;
}

const dayMs = 86_400_000;

/** A value as its column stores it; `null` for a value the column cannot hold. */
function storedValue(value: unknown, type: ColumnType): number | boolean | string | null {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
    case 'double':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      const time = typeof value === 'string' ? Date.parse(`${value.slice(0, 10)}T00:00:00Z`) : Number.NaN;
      return Number.isNaN(time) ? null : Math.floor(time / dayMs);
    }
    default:
      return cellOf(value);
  }
}

/**
 * Characters whose UTF-16 order differs from their UTF-8 byte order (Parquet's order for text):
 * surrogates sort before U+E000–U+FFFF as UTF-16 units, after them as code points.
 */
const orderSensitive = /[\uD800-\uFFFF]/;

/** `a` before `b` in code point (UTF-8 byte) order. */
function textBefore(a: string, b: string): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const [x, y] = [a.codePointAt(i)!, b.codePointAt(i)!];
    if (x !== y) return x < y;
    if (x > 0xffff) i++;
  }
  return a.length < b.length;
}

/** One column of `rows`: its stored values, and their min, max and null count. */
export function columnChunk(
  rows: readonly Record<string, unknown>[],
  name: string,
  type: ColumnType,
): ColumnChunk {
  const data: unknown[] = new Array(rows.length);
  let [min, max]: Array<number | boolean | string | undefined> = [undefined, undefined];
  let [nulls, careful] = [0, false];
  for (let i = 0; i < rows.length; i++) {
    const value = storedValue(rows[i]![name], type);
    if (value === null) {
      data[i] = null;
      nulls++;
      continue;
    }
    if (typeof value === 'string' && !careful && orderSensitive.test(value)) careful = true;
    if (min === undefined || value < min) min = value;
    if (max === undefined || value > max) max = value;
    data[i] = type === 'integer' ? BigInt(value as number) : value;
  }
  if (careful) [min, max] = textBounds(data as Array<string | null>);
  return { data, statistics: statisticsOf(type, min, max, nulls) };
}

function textBounds(values: ReadonlyArray<string | null>): [string | undefined, string | undefined] {
  let [min, max]: Array<string | undefined> = [undefined, undefined];
  for (const value of values) {
    if (value === null) continue;
    if (min === undefined || textBefore(value, min)) min = value;
    if (max === undefined || textBefore(max, value)) max = value;
  }
  return [min, max];
}

function statisticsOf(type: ColumnType, min: unknown, max: unknown, nulls: number): ChunkStatistics {
  // JSON has no NaN, so a float column counts none.
  const statistics: ChunkStatistics = {
    null_count: BigInt(nulls),
    ...(type === 'double' && { nan_count: 0n }),
  };
  if (min === undefined) return statistics;
  if (type === 'integer') [min, max] = [BigInt(min as number), BigInt(max as number)];
  // Parquet's rule for floats: a zero bound is -0 as a min and +0 as a max.
  if (type === 'double' && min === 0) min = -0;
  if (type === 'double' && max === 0) max = 0;
  return { min_value: min, max_value: max, ...statistics };
}
