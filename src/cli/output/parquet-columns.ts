/**
 * A row group's columns as hyparquet-writer takes them, with each column chunk's statistics made in
 * the same pass: the library's own pass compares every value again, through a generic comparison
 * that costs more than the encoding of most columns. Text that will take no dictionary is handed over
 * as UTF-8 already, all of a chunk's encoded at once.
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
  /** `PLAIN` where the chunk is known to take no dictionary (its text is then bytes already). */
  encoding?: 'PLAIN';
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
      if (this.#min === undefined || value < this.#min) this.#min = value;
      if (this.#max === undefined || value > this.#max) this.#max = value;
      this.#data.push(type === 'integer' ? BigInt(value as number) : value);
    }
  }

  /** The chunk gathered so far; the gatherer starts again empty. */
  take(): ColumnChunk {
    const { bounds, ...chunk } =
      this.type === 'text' || this.type === 'json'
        ? textChunk(
            this.#data as Array<string | null>,
            this.#min as string | undefined,
            this.#max as string | undefined,
          )
        : { data: this.#data, bounds: [this.#min, this.#max] };
    const taken = { ...chunk, statistics: statisticsOf(this.type, bounds[0], bounds[1], this.#nulls) };
    this.#data = [];
    this.#min = this.#max = undefined;
    this.#nulls = 0;
    return taken;
  }
}

/**
 * A text chunk's values and bounds. All its text is encoded at once: the bounds need the code point
 * order only if some character sorts differently in it (see `orderSensitive`), and a chunk that will
 * take no dictionary is handed over as UTF-8 bytes, views of one buffer, where the library would
 * allocate an array per value.
 */
function textChunk(values: Array<string | null>, min: string | undefined, max: string | undefined) {
  const joined = values.join('');
  const bounds = orderSensitive.test(joined) ? textBounds(values) : [min, max];
  if (dictionaryLikely(values)) return { data: values, bounds };
  return { data: utf8Views(values, joined), bounds, encoding: 'PLAIN' as const };
}

/**
 * hyparquet-writer's own first test of a dictionary, on the same sample: a thousand values spread over
 * the chunk, weighed by length, of which distinct values may weigh at most 90%. Where it fails, the
 * library would write the chunk plain; where it passes, the library decides on the whole chunk, from
 * its text.
 */
function dictionaryLikely(values: ReadonlyArray<string | null>): boolean {
  const size = Math.min(values.length, 1000);
  const seen = new Set<string>();
  let [distinct, total] = [0, 0];
  for (let i = 0; i < size; i++) {
    const value = values[size === 1 ? 0 : Math.floor((i * (values.length - 1)) / (size - 1))];
    if (value === null || value === undefined) continue;
    total += value.length + 4;
    if (seen.has(value)) continue;
    seen.add(value);
    distinct += value.length + 4;
  }
  return total > 0 && distinct / total <= 0.9;
}

/** `values` as UTF-8, each a view of `joined`'s bytes; per value where a value's bytes depend on its neighbour's. */
function utf8Views(values: ReadonlyArray<string | null>, joined: string): Array<Uint8Array | null> {
  const bytes = Buffer.from(joined, 'utf8');
  const ascii = bytes.length === joined.length;
  const lengths = values.map((value) =>
    value === null ? 0 : ascii ? value.length : Buffer.byteLength(value, 'utf8'),
  );
  // Lone surrogates in two neighbours would join into one character: then each value on its own.
  if (!ascii && lengths.reduce((sum, length) => sum + length, 0) !== bytes.length)
    return values.map((value) => (value === null ? null : Buffer.from(value, 'utf8')));
  let offset = bytes.byteOffset;
  return values.map((value, i) => {
    if (value === null) return null;
    const view = new Uint8Array(bytes.buffer, offset, lengths[i]);
    offset += lengths[i]!;
    return view;
  });
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
