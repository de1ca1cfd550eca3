/** DuckDB, in memory, as a reader of the files the command line writes: a reader that is not ours. */
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * Rows of `sql` as JSON values (BIGINT as text, DATE as `YYYY-MM-DD`), from an instance of its own:
 * test files share this module in a worker, so no instance outlives the query that opened it.
 */
export async function duckdb(sql: string): Promise<Record<string, unknown>[]> {
  // Never an extension from the network: what is not built in is not used.
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** `column: TYPE` of each column of the Parquet file at `path`, as DuckDB reads it. */
export async function parquetTypes(path: string): Promise<Record<string, unknown>> {
  const rows = await duckdb(`DESCRIBE SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
  return Object.fromEntries(rows.map((row) => [row.column_name, row.column_type]));
}
