/**
 * A row group's columns as hyparquet-writer takes them, with each column chunk's statistics made in
 * the same pass: the library's own pass compares every value again, through a generic comparison
 * that costs more than the encoding of most columns.
 */
import type { ColumnType } from './record-kinds.js';
import { daysSince1970, storedNoting, type UnfitValues } from './typed-values.js';

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

/**
 * One column of a row group, gathered page by page as the records come: its stored values, and their
 * min, max and null count. The records themselves are not kept until the group is whole, only what
 * the column stores of them.
 */
export class ColumnGatherer {
  #data: unknown[] = [];
  #min: number | boolean | string | undefined;
  #max: number | boolean | string | undefined;
  #nulls = 0;
  /** Whether a text value needs the code point order for its bounds (see `orderSensitive`). */
  #careful = false;

  constructor(
    readonly name: string,
    readonly type: ColumnType,
    /** Where a value the column cannot hold is counted. */
    readonly unfit?: UnfitValues,
  ) {}

  add(rows: readonly Record<string, unknown>[]): void {
    const { name, type } = this;
    for (const row of rows) {
      const stored = storedNoting(row[name], name, type, this.unfit);
      if (stored === null) {
        this.#data.push(null);
        this.#nulls++;
        continue;
      }
      // A date is kept as its days since 1970, as Parquet's DATE is.
      const value = type === 'date' ? daysSince1970(stored as string) : stored;
      if (typeof value === 'string' && !this.#careful && orderSensitive.test(value)) this.#careful = true;
      if (this.#min === undefined || value < this.#min) this.#min = value;
      if (this.#max === undefined || value > this.#max) this.#max = value;
      this.#data.push(type === 'integer' ? BigInt(value as number) : value);
    }
  }

  /** The chunk gathered so far; the gatherer starts again empty. */
  take(): ColumnChunk {
    const data = this.#data;
    const [min, max] = this.#careful ? textBounds(data as Array<string | null>) : [this.#min, this.#max];
    const chunk = { data, statistics: statisticsOf(this.type, min, max, this.#nulls) };
    this.#data = [];
    this.#min = this.#max = undefined;
    this.#nulls = 0;
    this.#careful = false;
    return chunk;
  }
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
