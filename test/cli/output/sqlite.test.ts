/**
 * The SQLite writer's upserts, many rows to a statement: a page longer than one statement holds,
 * a key given twice in one page, and pages of different lengths all land as one row per key. A
 * field a record does not carry leaves the stored value; one it carries as null replaces it. A
 * transaction SQLite ends itself (a full disk) fails with SQLite's own reason.
 */
import type { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { DatabaseError, UsageError } from '../../../src/cli/errors.js';
import { recordKinds } from '../../../src/cli/output/record-kinds.js';
import { inTransaction, openDatabase, openingFailure } from '../../../src/cli/output/sqlite.js';
import { batchUpserter } from '../../../src/cli/output/sqlite-upsert.js';
import { UnfitValues } from '../../../src/cli/output/typed-values.js';
import { scratch } from '../resume.js';

const papers = recordKinds['papers search']!;
const paper = (id: number, title = `Paper ${id}`) => ({
  id,
  title,
  year: 2000 + (id % 25),
  oa: id % 2 === 0,
});

describe('batchUpserter', () => {
  it('upserts a page of any length in order: a key given twice keeps its last values', async () => {
    const database = await openDatabase(`${scratch()}/papers.sqlite`);
    try {
      const upsert = batchUpserter(database, papers);
      // 8 columns: 125 rows to a statement, so 300 records take three, the last one shorter.
      const page = Array.from({ length: 300 }, (_, at) => paper(at + 1));
      page[250] = paper(7, 'Paper 7, again');
      inTransaction(database, () => upsert(page));
      inTransaction(database, () => upsert([paper(1, 'Paper 1, changed'), paper(301)]));
      inTransaction(database, () => upsert([]));
      const rows = database.prepare('SELECT id, title, year, oa FROM papers ORDER BY id').all();
      expect(rows).toHaveLength(300);
      expect(rows[0]).toEqual({ id: 1, title: 'Paper 1, changed', year: 2001, oa: 0 });
      expect(rows[6]).toEqual({ id: 7, title: 'Paper 7, again', year: 2007, oa: 0 });
      expect(rows.map((row) => row.id)).toEqual(
        Array.from({ length: 301 }, (_, at) => at + 1).filter((id) => id !== 251),
      );
    } finally {
      database.close();
    }
  });
});

describe('batchUpserter, a record without some fields', () => {
  const full = (id: number) => ({
    id,
    title: `Paper ${id}`,
    authors: 'A. Author',
    doi: `10.1/${id}`,
    year: 2020,
    citations: 1,
    oa: true,
    journal_id: 3,
  });
  const stored = (database: DatabaseSync) =>
    database
      .prepare(`SELECT ${Object.keys(papers.columns).join(', ')} FROM papers ORDER BY id`)
      .all()
      .map((row) => ({ ...row }));
  const upserted = async (...pages: Array<Array<Record<string, unknown>>>) => {
    const database = await openDatabase(`${scratch()}/papers.sqlite`);
    try {
      const upsert = batchUpserter(database, papers);
      for (const page of pages) inTransaction(database, () => upsert(page));
      return stored(database);
    } finally {
      database.close();
    }
  };
  const asStored = (record: Record<string, unknown>) => ({
    ...{ title: null, authors: null, doi: null, year: null, citations: null, oa: null, journal_id: null },
    ...record,
    ...(typeof record.oa === 'boolean' ? { oa: Number(record.oa) } : {}),
  });

  it('keeps the stored value of a field it does not carry', async () => {
    const rows = await upserted([full(77)], [{ id: 77, title: 'Paper 77, again', citations: 5 }]);
    expect(rows).toEqual([asStored({ ...full(77), title: 'Paper 77, again', citations: 5 })]);
  });

  it('replaces the stored value with a null it carries', async () => {
    const rows = await upserted([full(77)], [{ ...full(77), doi: null, year: null }]);
    expect(rows).toEqual([asStored({ ...full(77), doi: null, year: null })]);
  });

  it('writes a new row with null in the columns of the fields it does not carry', async () => {
    const rows = await upserted([{ id: 5, title: 'Paper 5' }, { id: 6 }]);
    expect(rows).toEqual([asStored({ id: 5, title: 'Paper 5' }), asStored({ id: 6 })]);
  });

  it('counts each value its column cannot hold once, whatever the shape of its record', async () => {
    const database = await openDatabase(`${scratch()}/papers.sqlite`);
    try {
      const unfit = new UnfitValues();
      const upsert = batchUpserter(database, papers, undefined, unfit);
      // Without a field after the one that does not fit, and before it.
      const { journal_id: _, ...withoutJournal } = { ...full(2), year: 'soon' };
      const { doi: __, ...withoutDoi } = { ...full(3), oa: 'yes' };
      inTransaction(database, () =>
        upsert([{ ...full(1), year: '2021' }, withoutJournal, withoutDoi, full(4)]),
      );
      expect(unfit.describe()).toBe('year (integer) 2, oa (boolean) 1');
      expect(stored(database).map(({ id, year, oa }) => ({ id, year, oa }))).toEqual([
        { id: 1, year: null, oa: 1 },
        { id: 2, year: null, oa: 1 },
        { id: 3, year: 2020, oa: null },
        { id: 4, year: 2020, oa: 1 },
      ]);
    } finally {
      database.close();
    }
  });

  it('writes a page of records of many shapes in order: each keeps what it does not carry', async () => {
    const first = Array.from({ length: 600 }, (_, at) => full(at + 1));
    // A shape longer than a statement holds (500 rows of 2 columns), 7 given twice, shapes alternating.
    const second = [
      ...Array.from({ length: 550 }, (_, at) => ({ id: at + 1, citations: 10 })),
      { id: 7, title: null },
      { id: 7, citations: 70 },
      ...Array.from({ length: 50 }, (_, at) =>
        at % 2 === 0 ? { id: 551 + at, year: 1999 } : { ...full(551 + at), doi: 'changed' },
      ),
      { id: 999, doi: '10.1/999' },
    ];
    const expected = first.map(({ id, ...record }) => {
      if (id === 7) return asStored({ id, ...record, title: null, citations: 70 });
      if (id <= 550) return asStored({ id, ...record, citations: 10 });
      return asStored({ id, ...record, ...((id - 551) % 2 === 0 ? { year: 1999 } : { doi: 'changed' }) });
    });
    expect(await upserted(first, second)).toEqual([...expected, asStored({ id: 999, doi: '10.1/999' })]);
  });
});

describe('inTransaction', () => {
  it('a transaction SQLite rolls back itself (the disk full) fails with why, and writes nothing', async () => {
    const database = await openDatabase(`${scratch()}/full.sqlite`);
    try {
      const upsert = batchUpserter(database, papers);
      // A database limited to its pages now, as a full disk limits it: SQLite ends the transaction.
      const pages = database.prepare('PRAGMA page_count').get() as { page_count: number };
      database.exec(`PRAGMA max_page_count = ${pages.page_count}`);
      const page = Array.from({ length: 300 }, (_, at) => paper(at + 1, 'x'.repeat(2000)));
      expect(() => inTransaction(database, () => upsert(page))).toThrow('database or disk is full');
      expect(database.prepare('SELECT count(*) AS n FROM papers').get()).toEqual({ n: 0 });
    } finally {
      database.close();
    }
  });
});

describe('openingFailure', () => {
  /** An error as node:sqlite throws it, with SQLite's extended code. */
  const sqliteError = (errcode: number, message: string) =>
    Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode });

  it.each([
    [8, 'attempt to write a readonly database'],
    [13, 'database or disk is full'],
    [5, 'database is locked'],
    [10 | (13 << 8), 'disk I/O error'],
  ])(
    'a database that cannot be written now (code %i) is a DatabaseError naming it: exit 1',
    (errcode, message) => {
      const failure = openingFailure('papers.sqlite', sqliteError(errcode, message));
      expect(failure).toBeInstanceOf(DatabaseError);
      expect((failure as Error).message).toMatch(/^papers\.sqlite/);
    },
  );

  it.each([
    [26, 'file is not a database'],
    [14, 'unable to open database file'],
  ])(
    'a file that is no database, or no place for one (code %i), is a usage error: exit 2',
    (errcode, message) => {
      const failure = openingFailure('papers.sqlite', sqliteError(errcode, message));
      expect(failure).toBeInstanceOf(UsageError);
      expect((failure as Error).message).toBe(`cannot open papers.sqlite as a SQLite database: ${message}`);
    },
  );
});
