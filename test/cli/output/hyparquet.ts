/**
 * hyparquet, the second reader of the command line's Parquet files, given Node's own Zstandard: the
 * files are compressed with it, and hyparquet reads Snappy alone unless given more.
 */
import { readFileSync } from 'node:fs';
import { zstdDecompressSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';

type ReadOptions = Parameters<typeof parquetReadObjects>[0];

/** The rows of a Parquet file as hyparquet reads them. */
export function parquetObjects(options: Omit<ReadOptions, 'compressors'>) {
  return parquetReadObjects({ ...options, compressors: { ZSTD: (input) => zstdDecompressSync(input) } });
}

/** The bytes of the file at `path`, as hyparquet takes them. */
export function parquetBytes(path: string): ArrayBuffer {
  const bytes = readFileSync(path);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** The rows of the Parquet file at `path` (of `columns` only, if given), INT64 as numbers again. */
export async function parquetRows(path: string, columns?: string[]): Promise<Record<string, unknown>[]> {
  const rows = (await parquetObjects({ file: parquetBytes(path), columns })) as Record<string, unknown>[];
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value]),
    ),
  );
}
