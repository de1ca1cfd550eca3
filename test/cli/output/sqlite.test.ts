/**
 * The SQLite writer's upserts, many rows to a statement: a page longer than one statement holds,
 * a key given twice in one page, and pages of different lengths all land as one row per key. A
 * transaction SQLite ends itself (a full disk) fails with SQLite's own reason.
 */
import { describe, expect, it } from 'vitest';
import { recordKinds } from '../../../src/cli/output/record-kinds.js';
import { batchUpserter, inTransaction, openDatabase } from '../../../src/cli/output/sqlite.js';
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
