/**
 * A row group's columns as hyparquet-writer takes them, with each column chunk's statistics made in
 * the same pass: the library's own pass compares every value again, through a generic comparison
 * that costs more than the encoding of most columns. Text goes to the library as UTF-8 bytes made
 * by `Buffer.from`, which takes small strings from a shared pool: the library's own conversion
 * (a `TextEncoder` call per value, each its own allocation) costs more than the rest of a column.
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
  return type === 'text' || type === 'json' ? textChunk(rows, name) : scalarChunk(rows, name, type);
}

/** A column of numbers, booleans or dates; integers as the bigints INT64 takes. */
function scalarChunk(rows: readonly Record<string, unknown>[], name: string, type: ColumnType): ColumnChunk {
  const data: unknown[] = new Array(rows.length);
  let [min, max]: Array<number | boolean | undefined> = [undefined, undefined];
  let nulls = 0;
  for (let i = 0; i < rows.length; i++) {
    const value = storedValue(rows[i]![name], type) as number | boolean | null;
    if (value === null) {
      data[i] = null;
      nulls++;
      continue;
    }
    if (min === undefined || value < min) min = value;
    if (max === undefined || value > max) max = value;
    data[i] = type === 'integer' ? BigInt(value as number) : value;
  }
  return { data, statistics: statisticsOf(type, min, max, nulls) };
}

/**
 * A column of text (JSON text for nested values) as UTF-8 bytes, one buffer per distinct value:
 * the library finds a repeated value's dictionary entry by the buffer it was handed before.
 */
function textChunk(rows: readonly Record<string, unknown>[], name: string): ColumnChunk {
  const data: Array<Uint8Array | null> = new Array(rows.length);
  const made = new Map<string, Uint8Array>();
  let [min, max]: Array<string | undefined> = [undefined, undefined];
  let [nulls, careful] = [0, false];
  for (let i = 0; i < rows.length; i++) {
    const value = rows[i]![name];
    if (value === undefined || value === null) {
      data[i] = null;
      nulls++;
      continue;
    }
    const text = cellOf(value);
    if (!careful && orderSensitive.test(text)) careful = true;
    if (min === undefined || text < min) min = text;
    if (max === undefined || text > max) max = text;
    let bytes = made.get(text);
    if (bytes === undefined) {
      bytes = Buffer.from(text, 'utf8');
      made.set(text, bytes);
    }
    data[i] = bytes;
  }
  if (careful) [min, max] = textBounds(rows.map((row) => storedValue(row[name], 'text') as string | null));
  return { data, statistics: statisticsOf('text', min, max, nulls) };
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
