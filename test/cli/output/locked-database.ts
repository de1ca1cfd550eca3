/**
 * A command run while another program holds a SQLite database's write lock (an open write
 * transaction, as a reader's `BEGIN IMMEDIATE` or another writer holds it), and what the command
 * says of it.
 */
import { DatabaseSync } from 'node:sqlite';
import { type InProcessOptions, type Result, run } from '../helpers.js';

/** `args` run in-process while `file`'s write lock is held elsewhere; the lock is let go after. */
export async function runWhileLocked(
  file: string,
  args: string[],
  options: InProcessOptions,
): Promise<Result> {
  const holder = new DatabaseSync(file);
  holder.exec('BEGIN IMMEDIATE');
  try {
    return await run(args, options);
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
}

/** The report of a database locked by another program, which the command waited for in vain. */
export const lockedReport = (file: string) =>
  `error: DatabaseError: ${file} is locked by another program (waited 5 s): run again once it is done\n`;
