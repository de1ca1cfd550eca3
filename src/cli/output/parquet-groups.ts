/**
 * The row groups of a Parquet file as its checkpoint keeps them: their metadata as JSON text, tagged
 * where JSON has no type (counts are bigints, statistics may be bytes), and the check of that text
 * on resume. The footer that ends a resumed file is written from these groups, and the checkpoint is
 * a file anyone can edit: groups that do not describe the bytes before the writer's offset, chunk by
 * chunk, in the columns this run writes, would end a file no reader opens.
 */
import type { ParquetWriter } from 'hyparquet-writer';
import { isRow } from './cells.js';

type RowGroup = ParquetWriter['row_groups'][number];

/** A column of the file: its name and Parquet's physical type of it (`INT64`, `BYTE_ARRAY`, …). */
export type FileColumn = readonly [name: string, type: string];

/** A row group's metadata as JSON text. */
export function encodeGroup(group: RowGroup): string {
  return JSON.stringify(group, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') };
    return value;
  });
}

/** The value of `encodeGroup`'s texts joined in a JSON list; throws on text that is not. */
function decodeGroups(text: string): unknown {
  return JSON.parse(text, (_key, value) => {
    if (value !== null && typeof value === 'object') {
      if (typeof value.$bigint === 'string') return BigInt(value.$bigint);
      if (typeof value.$bytes === 'string') return new Uint8Array(Buffer.from(value.$bytes, 'base64'));
    }
    return value;
  });
}

/** The magic number that starts a Parquet file, before the first group. */
const magicBytes = 4n;

/**
 * The row groups in `text`, when they describe the `offset` bytes a file of `columns` holds (the
 * magic number, then each group's chunks one after another, in the order of the columns) and hold
 * no more rows than the `count` records given; else what is wrong with them.
 */
export function checkedGroups(
  text: string,
  offset: number,
  columns: readonly FileColumn[],
  count: number,
): RowGroup[] | string {
  let groups: unknown;
  try {
    groups = decodeGroups(text);
  } catch {
    return 'writer.parquet.rowGroups is not JSON of row groups';
  }
  if (!Array.isArray(groups)) return 'writer.parquet.rowGroups is not a list';
  let end = magicBytes;
  let rows = 0n;
  for (const [index, group] of groups.entries()) {
    const checked = checkedGroup(group, end, columns);
    if (typeof checked === 'string') return `writer.parquet row group ${index + 1}${checked}`;
    end += checked.bytes;
    rows += checked.rows;
  }
  if (end !== BigInt(offset))
    return `the row groups end at byte ${end}, not at writer.parquet.offset ${offset}`;
  if (rows > BigInt(count)) return `the row groups hold ${rows} rows, more than the ${count} records written`;
  return groups as RowGroup[];
}

/** The fields a row group's metadata, a chunk's and its meta_data have, as the writer makes them. */
const groupFields = ['columns', 'total_byte_size', 'num_rows', 'total_compressed_size'];
const chunkFields = ['meta_data', 'file_offset'];
const metaFields = [
  ...['type', 'encodings', 'path_in_schema', 'codec', 'num_values', 'total_compressed_size'],
  ...['total_uncompressed_size', 'data_page_offset', 'dictionary_page_offset', 'statistics'],
  'encoding_stats',
];

/** The group starting at byte `start`: its bytes and rows, or what is wrong with it (after a `: `). */
function checkedGroup(
  group: unknown,
  start: bigint,
  columns: readonly FileColumn[],
): { bytes: bigint; rows: bigint } | string {
  if (!isRow(group)) return ': not an object';
  const other = otherField(group, groupFields);
  if (other !== undefined) return `: has ${other}`;
  const { num_rows: rows, columns: chunks } = group;
  if (typeof rows !== 'bigint' || rows < 1n) return ': num_rows is not a count of 1 or more';
  if (!Array.isArray(chunks) || chunks.length !== columns.length)
    return `: columns is not a chunk for each of the ${columns.length} columns`;
  let end = start;
  let uncompressed = 0n;
  for (const [j, chunk] of chunks.entries()) {
    const checked = checkedChunk(chunk, columns[j]!, end, rows);
    if (typeof checked === 'string') return `, column ${columns[j]![0]}: ${checked}`;
    end += checked.bytes;
    uncompressed += checked.uncompressed;
  }
  if (group.total_compressed_size !== end - start)
    return ': total_compressed_size is not the bytes of its chunks';
  if (group.total_byte_size !== uncompressed)
    return ': total_byte_size is not the uncompressed bytes of its chunks';
  return { bytes: end - start, rows };
}

/** The chunk of `column` starting at byte `start`, in a group of `rows`: its sizes, or what is wrong. */
function checkedChunk(
  chunk: unknown,
  [name, type]: FileColumn,
  start: bigint,
  rows: bigint,
): { bytes: bigint; uncompressed: bigint } | string {
  if (!isRow(chunk) || otherField(chunk, chunkFields) !== undefined) return 'not a column chunk';
  const meta = chunk.meta_data;
  if (!isRow(meta)) return 'meta_data is not an object';
  const other = otherField(meta, metaFields);
  if (other !== undefined) return `meta_data has ${other}`;
  if (chunk.file_offset !== start) return `file_offset is ${String(chunk.file_offset)}, not ${start}`;
  if (meta.type !== type) return `type is ${String(meta.type)}, not ${type}`;
  if (!sameTexts(meta.path_in_schema, [name])) return 'path_in_schema is not its name';
  if (meta.codec !== 'ZSTD' && meta.codec !== 'SNAPPY') return 'codec is not ZSTD or SNAPPY';
  if (!isListOf(meta.encodings, isEncoding) || meta.encodings.length === 0)
    return 'encodings is not a list of encodings';
  if (meta.num_values !== rows) return "num_values is not its group's num_rows";
  const bytes = meta.total_compressed_size;
  const uncompressed = meta.total_uncompressed_size;
  if (typeof bytes !== 'bigint' || bytes < 1n) return 'total_compressed_size is not a count of 1 or more';
  if (typeof uncompressed !== 'bigint' || uncompressed < 0n) return 'total_uncompressed_size is not a count';
  const pages = pagesProblem(meta, start, start + bytes);
  if (pages !== undefined) return pages;
  const statistics = statisticsProblem(meta.statistics, type, rows);
  if (statistics !== undefined) return `statistics ${statistics}`;
  return { bytes, uncompressed };
}

/** What is wrong with where a chunk's pages start, within its bytes `start` to `end`, if anything. */
function pagesProblem(meta: Record<string, unknown>, start: bigint, end: bigint): string | undefined {
  const { dictionary_page_offset: dictionary, data_page_offset: data, encoding_stats: stats } = meta;
  if (dictionary !== undefined && dictionary !== start)
    return 'dictionary_page_offset is not where the chunk starts';
  const first = dictionary === undefined ? start : start + 1n;
  if (typeof data !== 'bigint' || data < first || data >= end || (dictionary === undefined && data !== start))
    return 'data_page_offset is not within the chunk';
  if (!isListOf(stats, isEncodingStats)) return 'encoding_stats is not a list of page counts';
  return undefined;
}

/** The bounds a statistic of each Parquet type holds, as the writer keeps them. */
const isBound: Record<string, (value: unknown) => boolean> = {
  INT64: (value) => typeof value === 'bigint',
  INT32: (value) => Number.isSafeInteger(value),
  DOUBLE: (value) => typeof value === 'number',
  BOOLEAN: (value) => typeof value === 'boolean',
  BYTE_ARRAY: (value) => typeof value === 'string' || value instanceof Uint8Array,
};

/** What is wrong with a chunk's statistics, if anything: its bounds are written into the footer. */
function statisticsProblem(statistics: unknown, type: string, rows: bigint): string | undefined {
  if (!isRow(statistics)) return 'is not an object';
  const other = otherField(statistics, ['min_value', 'max_value', 'null_count', 'nan_count']);
  if (other !== undefined) return `has ${other}`;
  const { min_value: min, max_value: max, null_count: nulls, nan_count: nans } = statistics;
  if (typeof nulls !== 'bigint' || nulls < 0n || nulls > rows) return 'null_count is not a count of its rows';
  if (nans !== undefined && (type !== 'DOUBLE' || nans !== 0n)) return 'nan_count is not 0 of a DOUBLE';
  const bound = isBound[type];
  if (min === undefined && max === undefined) return undefined;
  if (bound === undefined || !bound(min) || !bound(max)) return `min_value or max_value is not ${type}`;
  return undefined;
}

/** Parquet's encodings and page types, as hyparquet-writer names them. */
const encodings = new Set([
  ...['PLAIN', 'GROUP_VAR_INT', 'PLAIN_DICTIONARY', 'RLE', 'BIT_PACKED', 'DELTA_BINARY_PACKED'],
  ...['DELTA_LENGTH_BYTE_ARRAY', 'DELTA_BYTE_ARRAY', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT'],
]);
const pageTypes = new Set(['DATA_PAGE', 'INDEX_PAGE', 'DICTIONARY_PAGE', 'DATA_PAGE_V2']);

const isEncoding = (value: unknown) => typeof value === 'string' && encodings.has(value);

function isEncodingStats(value: unknown): boolean {
  if (!isRow(value) || otherField(value, ['page_type', 'encoding', 'count']) !== undefined) return false;
  const { page_type: page, encoding, count } = value;
  return pageTypes.has(page as string) && isEncoding(encoding) && Number.isSafeInteger(count);
}

function isListOf(value: unknown, each: (item: unknown) => boolean): value is unknown[] {
  return Array.isArray(value) && value.every(each);
}

function sameTexts(value: unknown, texts: readonly string[]): boolean {
  return (
    Array.isArray(value) && value.length === texts.length && value.every((item, at) => item === texts[at])
  );
}

/** A field of `object` that is not one of `fields`, if any. */
function otherField(object: Record<string, unknown>, fields: readonly string[]): string | undefined {
  return Object.keys(object).find((key) => !fields.includes(key));
}
