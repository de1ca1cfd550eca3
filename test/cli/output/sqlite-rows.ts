// The SQLite databases the command line writes, read back by node:sqlite.
import { DatabaseSync } from 'node:sqlite';

/** The rows `sql` selects from the database at `path`, as plain objects. */
export function sqliteRows(path: string, sql: string): Record<string, unknown>[] {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return (database.prepare(sql).all() as Record<string, unknown>[]).map((row) => ({ ...row }));
  } finally {
    database.close();
  }
}
