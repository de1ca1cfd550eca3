/**
 * The SQLite list writer, through Node's own `node:sqlite` (no native module to build): a table per
 * record kind, typed columns, a primary key, and every row upserted, so that writing the same
 * records twice leaves one row each and a changed value replaces the old one. Each page is one
 * transaction: a stopped run leaves whole pages.
 */
import { resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { DatabaseError, UsageError } from '../errors.js';
import { quietly } from '../quiet-warnings.js';
import type { Row } from './cells.js';
import { terminalSafe } from './escape.js';
import { journalPapers, type RecordKind, recordKinds } from './record-kinds.js';
import { batchUpserter } from './sqlite-upsert.js';
import type { ListState, ListWriter, WriterOptions } from './writer-types.js';

type Sqlite = typeof import('node:sqlite');

/** The Node release that first has `node:sqlite` without a flag. */
export const sqliteNode = '22.13';

/**
 * `node:sqlite`, loaded without the ExperimentalWarning Node 22 prints for it; a usage error naming
 * the Node that has it where this one does not.
 */
export async function loadSqlite(): Promise<Sqlite> {
  try {
    return await quietly(() => import('node:sqlite'));
  } catch {
    throw new UsageError(
      `SQLite databases need node:sqlite, which Node ${sqliteNode} and later have (this is Node ${process.versions.node})`,
    );
  }
}

/** How long a statement waits for another program's write to end before it fails. */
const busyTimeoutSeconds = 5;

/** node:sqlite's primary SQLite code of `error` (its extended code less the extension). */
const sqliteCode = (error: unknown) => Number((error as { errcode?: unknown }).errcode) & 0xff;

/** Whether `error` is node:sqlite's SQLITE_BUSY or SQLITE_LOCKED: another connection holds the lock. */
export const isLockedError = (error: unknown) => [5, 6].includes(sqliteCode(error));

/**
 * SQLite's codes for a database that is there but cannot be written now: no permission (3), locked
 * (5, 6), read-only (8), an I/O error (10), a full disk (13). The command failed (a DatabaseError);
 * any other refusal at opening (not a database, no such folder) is a usage error.
 */
const cannotBeWritten = [3, 5, 6, 8, 10, 13];

/** What opening `path` as a database failing with `error` is: a DatabaseError, or a usage error. */
export function openingFailure(path: string, error: unknown): unknown {
  if (cannotBeWritten.includes(sqliteCode(error))) return databaseError(path, error);
  return new UsageError(
    terminalSafe(`cannot open ${path} as a SQLite database: ${(error as Error).message}`),
  );
}

/**
 * `error` as a DatabaseError naming `path` when node:sqlite threw it (its own message names no
 * file, and `database is locked` says neither by whom nor what to do); any other error as it is.
 */
export function databaseError(path: string, error: unknown): unknown {
  if ((error as { code?: unknown } | undefined)?.code !== 'ERR_SQLITE_ERROR') return error;
  const message = isLockedError(error)
    ? `${path} is locked by another program (waited ${busyTimeoutSeconds} s): run again once it is done`
    : `${path}: ${(error as Error).message}`;
  return new DatabaseError(terminalSafe(message));
}

/**
 * The file node:sqlite opens for `path`, which `name` (an option or argument) gave: an absolute path,
 * as node:sqlite reads `:memory:` and `file:` URIs as a database in memory or another file, where
 * the command means the file of that name (as `--output` is for every format). An empty path names
 * no file (resolved, it would be the working folder): a usage error.
 */
export function databaseFile(path: string, name: string): string {
  if (path === '') throw new UsageError(`${name} needs a file path, not an empty one`);
  if (path === '-') {
    throw new UsageError(`${name} - is standard output, which cannot hold a database: give a file path`);
  }
  return resolve(path);
}

/**
 * Opens `path` (given by `name`) as a database for upserts: WAL, so a reader may look while a harvest
 * writes. SQLite reads a file's header at its first statement, so a file that is not a database
 * fails there.
 */
export async function openDatabase(path: string, name = '--output'): Promise<DatabaseSync> {
  const file = databaseFile(path, name);
  const { DatabaseSync } = await loadSqlite();
  let database: DatabaseSync | undefined;
  try {
    database = new DatabaseSync(file);
    database.exec(
      `PRAGMA busy_timeout = ${busyTimeoutSeconds * 1000}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`,
    );
    return database;
  } catch (error) {
    database?.close();
    throw openingFailure(path, error);
  }
}

/** Runs `work` in one transaction: all of it, or none if it throws. */
export function inTransaction(database: DatabaseSync, work: () => void): void {
  database.exec('BEGIN IMMEDIATE');
  try {
    work();
    database.exec('COMMIT');
  } catch (error) {
    try {
      database.exec('ROLLBACK');
    } catch {
      // SQLite has rolled back itself (a full disk, an I/O error): the error that says why is `error`.
    }
    throw error;
  }
}

/** The columns a page writes: `--fields` (which must hold the key, and no nested path), else the kind's. */
function writtenColumns(kind: RecordKind, fields: readonly string[] | undefined): string[] {
  if (fields === undefined) return Object.keys(kind.columns);
  const missing = kind.key.filter((name) => !fields.includes(name));
  if (missing.length > 0)
    throw new UsageError(
      `--format sqlite upserts by ${kind.key.join(', ')}: add ${missing.join(', ')} to --fields`,
    );
  const unknown = fields.filter((name) => kind.columns[name] === undefined);
  if (unknown.length > 0)
    throw new UsageError(
      `--format sqlite has no column for ${unknown.join(', ')}: a table has the top fields`,
    );
  return [...fields];
}

/** Upserts a page of `kind`'s records; `journals papers 42` links each paper to journal 42 too. */
function pageWriter(
  database: DatabaseSync,
  kind: RecordKind,
  columns: readonly string[],
  options: WriterOptions,
): (records: readonly Row[]) => void {
  const upsert = batchUpserter(database, kind, columns, options.unfit);
  const journal = kind === recordKinds['journals papers'] ? Number(options.args?.[0]) : undefined;
  const link =
    journal !== undefined && Number.isSafeInteger(journal)
      ? batchUpserter(database, journalPapers)
      : undefined;
  return (records) => {
    upsert(records);
    if (link !== undefined) link(records.map((record) => ({ journal_id: journal, paper_id: record.id })));
  };
}

/** The SQLite writer of a list of `options.kind`'s records into `options.database`. */
export async function sqliteListWriter(restored: ListState, options: WriterOptions): Promise<ListWriter> {
  const { kind, database: path } = options;
  if (kind === undefined || path === undefined)
    throw new UsageError('--format sqlite writes the records of a command it knows into --output FILE');
  const columns = writtenColumns(kind, options.fields);
  const database = await openDatabase(path);
  const state: ListState = { ...restored, columns };
  try {
    // Made in a transaction: a table it then cannot write (one made by hand, with no key to upsert by)
    // keeps none of the columns it added.
    let write: (records: readonly Row[]) => void = () => {};
    inTransaction(database, () => {
      write = pageWriter(database, kind, columns, options);
    });
    return {
      rows(records) {
        if (records.length === 0) return '';
        try {
          inTransaction(database, () => write(records));
        } catch (error) {
          throw databaseError(path, error);
        }
        state.count += records.length;
        return '';
      },
      end: () => '',
      state: () => state,
      close: () => database.close(),
    };
  } catch (error) {
    database.close();
    throw databaseError(path, error);
  }
}
