/**
 * `sync` stopped by its database failing mid-run (a full disk, played by a trigger that refuses every
 * paper): `sync_runs.stopped_by` records the error's name as the terminal reports it.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';
import { sqliteRows } from '../output/sqlite-rows.js';
import { scratch } from '../resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 40, authors: 5 } });

/** A database at `file` whose papers table refuses every row with SQLite's words for a full disk. */
function fullForPapers(file: string): void {
  const database = new DatabaseSync(file);
  database.exec(`CREATE TABLE papers (id INTEGER PRIMARY KEY);
    CREATE TRIGGER full BEFORE INSERT ON papers BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;`);
  database.close();
}

describe('sync, its database failing', () => {
  it('records in sync_runs the name of the error it reports: DatabaseError', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    fullForPapers(file);
    const result = await run(['sync', file, 'papers', '--q', 'a', '--per-page', '10'], {
      url: mock.server.url,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: DatabaseError: ${file}: database or disk is full\n`);
    expect(sqliteRows(file, 'SELECT records, stopped_by FROM sync_runs')).toEqual([
      { records: 0, stopped_by: 'DatabaseError' },
    ]);
  });
});
