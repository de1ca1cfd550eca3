/**
 * A lock a run holds on a file beside the one it writes: SQLite's own lock on an empty file, which the
 * system lets go when the process ends, `kill -9` included, on every system Node runs on.
 */
import { rmSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { OutputFileError } from './errors.js';
import { fileOf } from './file-identity.js';
import { terminalSafe } from './output/escape.js';
import { databaseError, isLockedError, loadSqlite } from './output/sqlite.js';
import { streamKind } from './output/stream-sink.js';

export interface FileLock {
  release(): void;
}

/** The lock of a run that holds none: where no lock can be had, or none is needed. */
export const noLock: FileLock = { release() {} };

/**
 * The lock on `lockPath`, or `undefined` when another process holds it (the caller tells why). No
 * wait: a held lock is an answer, not something to wait out. A file that cannot be locked is a
 * `DatabaseError` naming it. With `remove`, the lock file goes at release if it is still empty, so
 * that no file of the user's is ever removed (the name is ours, but a user may have one like it).
 */
export async function takeLock(lockPath: string, remove = false): Promise<FileLock | undefined> {
  const { DatabaseSync } = await loadSqlite();
  let lock: DatabaseSync | undefined;
  try {
    lock = new DatabaseSync(lockPath);
    // No journal file: the lock writes nothing, and the file stays empty.
    lock.exec('PRAGMA busy_timeout = 0; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE');
  } catch (error) {
    lock?.close();
    if (isLockedError(error)) return undefined;
    throw databaseError(lockPath, error);
  }
  const held = lock;
  return {
    release() {
      if (!remove) return held.close();
      // Removed while still held: a run that opens it from now on locks a file no one else will.
      const settled = removeIfEmpty(lockPath);
      held.close();
      // A system that removes no open file (Windows) has it removed once closed.
      if (!settled) removeIfEmpty(lockPath);
    },
  };
}

/** Removes the file at `path` if it is empty; false if it could not be looked at or removed. */
function removeIfEmpty(path: string): boolean {
  try {
    if (statSync(path).size === 0) rmSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The lock file of a run writing `output`: beside the file its links lead to, one for all its names. */
export const outputLockPath = (output: string) => `${fileOf(output)}.harvest-lock`;

/**
 * Holds `--output` for this run: two runs writing one file at once would tear it, and the second is
 * refused before it asks for anything. Where no lock can be had (no node:sqlite before Node 22.13, a
 * folder where no file can be made), the run goes on: the sink's own opening tells the second of those.
 */
export async function lockOutput(output: string): Promise<FileLock> {
  // A pipe or a device is written as a stream: no harvest keeps a checkpoint there, nor a lock.
  if ((await streamKind(output)) !== undefined) return noLock;
  let lock: FileLock | undefined;
  try {
    lock = await takeLock(outputLockPath(output), true);
  } catch {
    return noLock;
  }
  if (lock !== undefined) return lock;
  throw new OutputFileError(
    terminalSafe(
      `another run is writing --output ${output}: this one ends without asking for anything (run it again once that one is done)`,
    ),
  );
}
