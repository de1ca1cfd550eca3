/**
 * hyparquet, the second reader of the command line's Parquet files, given Node's own Zstandard: the
 * files are compressed with it, and hyparquet reads Snappy alone unless given more.
 */
import { zstdDecompressSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';

type ReadOptions = Parameters<typeof parquetReadObjects>[0];

/** The rows of a Parquet file as hyparquet reads them. */
export function parquetObjects(options: Omit<ReadOptions, 'compressors'>) {
  return parquetReadObjects({ ...options, compressors: { ZSTD: (input) => zstdDecompressSync(input) } });
}
