/**
 * A database or Parquet file that `--output` names, kept from a run that would write another format
 * over it: told by its first bytes, whatever its name.
 */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { terminalSafe } from './escape.js';

/** The first bytes of a SQLite database and of a Parquet file. */
const databaseMagic = [
  {
    format: 'sqlite',
    magic: Buffer.from('SQLite format 3\0'),
    what: 'a SQLite database',
    verb: 'write into it',
  },
  { format: 'parquet', magic: Buffer.from('PAR1'), what: 'a Parquet file', verb: 'write it afresh' },
] as const;

/**
 * The database or Parquet file at `path`, told by its first bytes; `undefined` for anything else.
 * Only a regular file is read: a FIFO would wait for a writer.
 */
export async function databaseAt(path: string): Promise<(typeof databaseMagic)[number] | undefined> {
  let head: Buffer;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    // Missing or unreadable: nothing to keep, or the writer's own error says why.
    return undefined;
  }
  return databaseOf(head);
}

/** The database or Parquet file whose first bytes are `head`; `undefined` for anything else. */
export function databaseOf(head: Buffer): (typeof databaseMagic)[number] | undefined {
  return databaseMagic.find(({ magic }) => head.subarray(0, magic.length).equals(magic));
}

/**
 * Refuses an `output` that holds a SQLite database or a Parquet file when the run `writes` another
 * format: a name whose extension chooses no database (`.pq`, `.bak`), or a `--format` given by
 * mistake, would otherwise have it cut to nothing and written over.
 */
export async function refuseOtherDatabase(output: string, writes: 'text' | 'parquet'): Promise<void> {
  const found = await databaseAt(output);
  if (found === undefined || found.format === writes) return;
  throw new UsageError(
    terminalSafe(
      `${output} is ${found.what}, which this run would write over: give --format ${found.format} to ${found.verb}, or remove it first`,
    ),
  );
}
