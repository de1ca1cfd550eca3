/**
 * One `sync` at a time on a database. A second one, started while the first runs (cron starting the
 * next before the last has ended), would take the first's run for one stopped midway and ask the API
 * again for everything the first was still asking. The lock is SQLite's own on a file beside the
 * database (`DB-sync`, left empty; see file-lock.ts).
 */
import { DatabaseError } from '../errors.js';
import { fileOf } from '../file-identity.js';
import { type FileLock, takeLock } from '../file-lock.js';
import { terminalSafe } from '../output/escape.js';
import { databaseFile } from '../output/sqlite.js';

/**
 * The file whose lock a sync of `path` (given by `name`) holds: beside the database a symbolic link
 * names, and as absolute as the database's own, so that node:sqlite reads no `file:` URI in it.
 */
function syncLockPath(path: string, name: string): string {
  const file = databaseFile(path, name);
  return `${fileOf(file)}-sync`;
}

/**
 * Takes the sync lock of the database at `path` (given by `name`), or fails at once if another sync
 * holds it.
 */
export async function lockSync(path: string, name: string): Promise<FileLock> {
  const lock = await takeLock(syncLockPath(path, name));
  if (lock !== undefined) return lock;
  throw new DatabaseError(
    terminalSafe(
      `another sync of ${path} is running: this one ends without asking for anything (run it again once that one is done)`,
    ),
  );
}
