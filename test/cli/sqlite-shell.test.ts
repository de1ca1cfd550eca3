/**
 * The SQLite databases the command line writes, read by SQLite's own shell (Debian's `sqlite3`, a build
 * apart from the one in Node): a reader that is not ours, where DuckDB cannot be one (its SQLite
 * extension is not built in, and tests download nothing). The file is copied alone first, as an analyst
 * mails it: whatever the run left in a `-wal` file would be missing from the copy.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/real-part.js';
import { useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';

const shell = spawnSync('sqlite3', ['--version'], { encoding: 'utf8' });
const skip = skipWithout(
  { name: 'sqlite3', present: shell.status === 0, install: 'apt-get install sqlite3' },
  'test/cli/sqlite-shell.test.ts',
);

const mock = useMockServer({ sizes: { journals: 6, papers: 120, authors: 10 } });

/** The rows `sql` selects, as the shell prints them in its JSON mode (none: an empty list). */
function shellRows(path: string, sql: string): Record<string, unknown>[] {
  const result = spawnSync('sqlite3', ['-readonly', '-json', path, sql], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim() === '' ? [] : JSON.parse(result.stdout);
}

async function jsonl(args: string[]) {
  const result = await run([...args, '--format', 'jsonl'], { url: mock.server.url });
  expect(result.code, result.stderr).toBe(0);
  return jsonLines(result.stdout) as Record<string, unknown>[];
}

describe.skipIf(skip)("SQLite's own shell reads the databases", { timeout: 120_000 }, () => {
  let copy: string;

  const folder = mkdtempSync(join(tmpdir(), 'scholarly-sqlite-shell-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  beforeAll(async () => {
    const file = join(folder, 'metrics.sqlite');
    for (const args of [
      ['sync', file, 'journals'],
      ['papers', 'search', '--all', '-o', file],
      ['journals', 'papers', '3', '--all', '-o', file],
    ]) {
      const result = await run(['--quiet', ...args], { url: mock.server.url });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(existsSync(`${file}-wal`)).toBe(false);
    const elsewhere = join(folder, 'mailed');
    mkdirSync(elsewhere);
    copy = join(elsewhere, 'metrics.sqlite');
    copyFileSync(file, copy);
  });

  it('finds the file whole, with the tables, keys and declared types the docs list', () => {
    expect(shellRows(copy, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const sql =
      "SELECT m.name AS tbl, p.name, p.type, p.pk FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.name IN ('score_points', 'journal_papers') ORDER BY m.name, p.cid";
    expect(
      shellRows(copy, sql).map((c) => `${c.tbl}.${c.name}: ${c.type}${Number(c.pk) > 0 ? ' *' : ''}`),
    ).toEqual([
      'journal_papers.journal_id: INTEGER *',
      'journal_papers.paper_id: INTEGER *',
      'score_points.journal_id: INTEGER *',
      'score_points.date: DATE *',
      'score_points.score: INTEGER',
    ]);
  });

  it('reads every journal, score point and paper the API gives, each value of its storage class', async () => {
    const journals = await jsonl(['journals', 'list']);
    const rows = shellRows(
      copy,
      'SELECT id, name, metric_score, typeof(metric_score) AS t FROM journals ORDER BY id',
    );
    expect(rows).toEqual(
      journals.map((j) => ({ id: j.id, name: j.name, metric_score: j.metric_score, t: 'integer' })),
    );

    const points = await jsonl(['journals', 'score', '2']);
    const stored = shellRows(
      copy,
      'SELECT journal_id, date, score, typeof(date) AS t FROM score_points WHERE journal_id = 2 ORDER BY date DESC',
    );
    expect(stored).toEqual(points.map((p) => ({ ...p, t: 'text' })));
    expect(stored.every((p) => /^\d{4}-\d{2}-\d{2}$/.test(String(p.date)))).toBe(true);

    const papers = await jsonl(['papers', 'search', '--all']);
    const read = shellRows(copy, 'SELECT id, doi, year, oa, typeof(oa) AS t FROM papers ORDER BY id');
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.id) - Number(b.id);
    expect(read).toEqual(
      papers.sort(byId).map((p) => ({ id: p.id, doi: p.doi, year: p.year, oa: p.oa ? 1 : 0, t: 'integer' })),
    );
    const ofJournal = await jsonl(['journals', 'papers', '3', '--all']);
    const linked = shellRows(
      copy,
      'SELECT paper_id AS id FROM journal_papers WHERE journal_id = 3 ORDER BY paper_id',
    );
    expect(linked).toEqual(ofJournal.map((p) => ({ id: p.id })).sort(byId));
  });

  it("finds the sync's own record of its run", () => {
    const [run] = shellRows(
      copy,
      'SELECT q.what, r.stopped_by, r.finished IS NOT NULL AS finished, r.requests > 0 AS asked FROM sync_runs r JOIN sync_queries q ON q.id = r.query_id',
    );
    expect(run).toEqual({ what: 'journals', stopped_by: 'done', finished: 1, asked: 1 });
  });
});
