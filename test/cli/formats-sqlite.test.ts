/**
 * `--format sqlite` (or `-o FILE.sqlite` / `FILE.db`), read back by `node:sqlite`: a table per record
 * kind, typed columns, primary keys, rows upserted (the same records twice leave one row each, a
 * changed score replaces the old), a stopped harvest continued, and no ExperimentalWarning on stderr.
 * DuckDB is not a reader here: its SQLite extension is not built in, and tests download nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { jsonLines, run, runBin } from './helpers.js';
import { dailyLimit } from './output/daily-limit.js';
import { lockedReport, runWhileLocked } from './output/locked-database.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const sizes = { journals: 10, papers: 400, authors: 20 };
const mock = useMockServer({ sizes });
const limited = useMockServer({ sizes, limits: dailyLimit(45) });

const query = sqliteRows;

/** `name: TYPE` of each column of `table`, its key columns marked with `*`. */
function columnsOf(path: string, table: string): string[] {
  return query(path, `PRAGMA table_info(${table})`).map(
    (column) => `${column.name}: ${column.type}${Number(column.pk) > 0 ? ' *' : ''}`,
  );
}

async function ok(args: string[], url = mock.server.url) {
  const result = await run(args, { url });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('--format sqlite', { timeout: 120_000 }, () => {
  it('writes a typed, keyed table; the same records twice leave one row each; a changed score replaces the old', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    await ok(['journals', 'list', '-o', file]);
    await ok(['journals', 'list', '-o', file]);
    expect(columnsOf(file, 'journals')).toEqual([
      'id: INTEGER *',
      'name: TEXT',
      'issn: TEXT',
      'metric_score: INTEGER',
      'quartile: TEXT',
      'country_id: INTEGER',
      'field_id: INTEGER',
      'total_papers: INTEGER',
      'total_cites: INTEGER',
      'description: TEXT',
      'oa: BOOLEAN',
    ]);
    const listed = jsonLines((await ok(['journals', 'list', '--format', 'jsonl'])).stdout);
    expect(query(file, 'SELECT count(*) AS n FROM journals')).toEqual([{ n: 10 }]);
    const before = query(file, 'SELECT metric_score FROM journals WHERE id = 3')[0]?.metric_score as number;
    expect(before).toBe((listed[2] as { metric_score: number }).metric_score);

    await mock.api.updateScore(3, before + 7);
    await ok(['journals', 'list', '-o', file]);
    // A profile adds its own columns to the same row, and leaves the list's as they are.
    await ok(['journals', 'get', '3', '-o', file]);
    expect(query(file, 'SELECT count(*) AS n FROM journals')).toEqual([{ n: 10 }]);
    const row = query(
      file,
      'SELECT metric_score, total_papers, typeof(oa) AS oa FROM journals WHERE id = 3',
    )[0];
    expect(row).toEqual({
      metric_score: before + 7,
      total_papers: (listed[2] as { total_papers: number }).total_papers,
      oa: 'integer',
    });
  });

  it('keeps what a later answer leaves out of a record: a field not sent is no changed value', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    const args = ['papers', 'search', '--q', 'a', '--limit', '5', '-o', file];
    await ok(args);
    const before = query(file, 'SELECT * FROM papers ORDER BY id');
    const handle = mock.server.api.handle.bind(mock.server.api);
    // The same papers again, as a briefer answer sends them: id, title and changed citations alone.
    mock.server.api.handle = async (request) => {
      const response = await handle(request);
      if (!new URL(request.url).pathname.endsWith('/papers')) return response;
      const body = (await response.json()) as { data: Array<Record<string, unknown>> };
      body.data = body.data.map(({ id, title, citations }) => ({
        id,
        title,
        citations: Number(citations) + 1,
      }));
      return Response.json(body, { status: response.status });
    };
    try {
      expect((await ok(args)).stderr).not.toContain('warning');
    } finally {
      mock.server.api.handle = handle;
    }
    const after = query(file, 'SELECT * FROM papers ORDER BY id');
    expect(after).toEqual(before.map((row) => ({ ...row, citations: Number(row.citations) + 1 })));
    expect(after.every((row) => row.doi !== null && row.year !== null)).toBe(true);
  });

  it('keys score points by (journal_id, date), and links a journal to its papers', async () => {
    const file = join(scratch(), 'metrics.db');
    await ok(['journals', 'score', '4', '-o', file]);
    await ok(['journals', 'score', '4', '-o', file]);
    expect(columnsOf(file, 'score_points')).toEqual([
      'journal_id: INTEGER *',
      'date: DATE *',
      'score: INTEGER',
    ]);
    const points = jsonLines((await ok(['journals', 'score', '4', '--format', 'jsonl'])).stdout);
    expect(query(file, 'SELECT journal_id, date, score FROM score_points ORDER BY date DESC')).toEqual(
      points,
    );

    await ok(['journals', 'papers', '4', '--all', '-o', file]);
    const papers = jsonLines((await ok(['journals', 'papers', '4', '--all', '--format', 'jsonl'])).stdout);
    expect(query(file, 'SELECT count(*) AS n FROM journal_papers WHERE journal_id = 4')).toEqual([
      { n: papers.length },
    ]);
    expect(query(file, 'SELECT count(*) AS n FROM papers')).toEqual([{ n: papers.length }]);
  });

  it('continues a harvest stopped by a daily limit: every record once', async () => {
    const file = join(scratch(), 'papers.sqlite');
    const args = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0', '-o', file, '--resume'];
    const first = await run(args, { url: limited.server.url });
    expect(first.code, first.stderr).toBe(75);
    // Whole pages: one transaction each.
    expect(query(file, 'SELECT count(*) AS n FROM papers')).toEqual([{ n: 45 * 5 }]);
    limited.api.reset();
    await ok(args, limited.server.url);
    const expected = jsonLines((await ok(['papers', 'search', '--all', '--format', 'jsonl'])).stdout);
    const rows = query(
      file,
      'SELECT id, title, authors, doi, year, citations, oa, journal_id FROM papers ORDER BY rowid',
    );
    expect(rows.map((row) => ({ ...row, oa: row.oa === 1 }))).toEqual(expected);
  });

  it('refuses --fields without the key, and --output to standard output (exit 2)', async () => {
    const file = join(scratch(), 'x.sqlite');
    const noKey = await run(['journals', 'list', '--fields', 'name', '-o', file], { url: mock.server.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('upserts by id: add id to --fields');
    const noFile = await run(['journals', 'list', '--format', 'sqlite'], { url: mock.server.url });
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('--format sqlite writes a file');
  });

  it('refuses a file that is not a SQLite database (exit 2), naming it, and leaves it as it was', async () => {
    const file = join(scratch(), 'notes.db');
    writeFileSync(file, 'doi,title\n10.1000/a,A paper\n');
    for (const args of [
      ['journals', 'list', '-o', file],
      ['sync', file, 'journals'],
    ]) {
      const result = await run(args, { url: mock.server.url });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `error: cannot open ${file} as a SQLite database: file is not a database`,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe('doi,title\n10.1000/a,A paper\n');
  });

  it('a table made by hand with no key to upsert by: a DatabaseError (exit 1), the table as it was', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    const database = new DatabaseSync(file);
    database.exec('CREATE TABLE papers (id INTEGER, title TEXT)');
    database.close();
    const asked = mock.api.requests.length;
    const result = await run(['papers', 'search', '--q', 'coral', '-o', file], { url: mock.server.url });
    expect(result.code).toBe(1);
    expect(mock.api.requests.length).toBe(asked);
    expect(result.stderr).toMatch(/^error: .*metrics\.sqlite: ON CONFLICT clause does not match/);
    expect(columnsOf(file, 'papers')).toEqual(['id: INTEGER', 'title: TEXT']);
  });

  it('a database another program is writing: a DatabaseError naming it (exit 1), no page half-written', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    await ok(['subjects', 'list', '-o', file]);
    const locked = await runWhileLocked(file, ['journals', 'list', '-o', file], { url: mock.server.url });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toBe(lockedReport(file));
    expect(query(file, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'journals'")).toEqual([
      { n: 0 },
    ]);
  });

  it('prints no ExperimentalWarning from the bin (stderr holds the last word alone)', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    const result = await runBin(['journals', 'list', '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/warning/i);
    expect(query(file, 'SELECT count(*) AS n FROM journals')).toEqual([{ n: 10 }]);
  });
});
