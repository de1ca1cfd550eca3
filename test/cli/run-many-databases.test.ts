/**
 * A record command given several ids into a database: one Parquet file or one SQLite table of every
 * id's rows, as one id writes them (a score's points, each with its journal's id), read back by
 * DuckDB, hyparquet and node:sqlite; an id the API does not know is named and the others written.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes } from '../../src/cli/errors.js';
import { useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';
import { duckdb, parquetTypes } from './output/duckdb.js';
import { parquetRows } from './output/hyparquet.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 10, papers: 50, authors: 20 } });

async function ok(args: string[]) {
  const result = await run(args, { url: mock.server.url });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** What jsonl writes for `args`: the rows a database must hold. */
const jsonlOf = async (args: string[]) =>
  jsonLines((await ok([...args, '--format', 'jsonl'])).stdout) as Record<string, unknown>[];

describe('several ids into a database', { timeout: 120_000 }, () => {
  it('journals score 2 5 7 -o FILE.parquet: every point of the three, with its journal id', async () => {
    const file = join(scratch(), 'scores.parquet');
    const result = await ok(['journals', 'score', '2', '5', '7', '-o', file]);
    const points = await jsonlOf(['journals', 'score', '2', '5', '7']);
    expect(new Set(points.map((point) => point.journal_id))).toEqual(new Set([2, 5, 7]));
    expect(result.stderr).toContain(`wrote ${points.length} score points to ${file}`);
    expect(await parquetTypes(file)).toEqual({ journal_id: 'BIGINT', date: 'DATE', score: 'BIGINT' });
    const read = await duckdb(
      `SELECT journal_id, strftime(date, '%Y-%m-%d') AS date, score
       FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`,
    );
    const asText = (point: Record<string, unknown>) => ({
      ...point,
      journal_id: String(point.journal_id),
      score: String(point.score),
    });
    expect(read).toEqual(points.map(asText));
    expect((await parquetRows(file)).map((row) => row.journal_id)).toEqual(
      points.map((point) => point.journal_id),
    );
  });

  it('journals score 2 5 -o FILE.sqlite twice: one row per point, upserted', async () => {
    const file = join(scratch(), 'scores.sqlite');
    await ok(['journals', 'score', '2', '5', '-o', file]);
    await ok(['journals', 'score', '5', '2', '-o', file]);
    const points = await jsonlOf(['journals', 'score', '2', '5']);
    const stored = sqliteRows(file, 'SELECT journal_id, date, score FROM score_points ORDER BY journal_id');
    const byJournal = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      Number(a.journal_id) - Number(b.journal_id) || String(b.date).localeCompare(String(a.date));
    expect(stored.sort(byJournal)).toEqual(points.sort(byJournal));
  });

  it('journals get 2 999999 3 -o FILE.sqlite: the two found written, the other named, exit 3', async () => {
    const file = join(scratch(), 'journals.sqlite');
    const result = await run(['journals', 'get', '2', '999999', '3', '-o', file], { url: mock.server.url });
    expect(result.code).toBe(exitCodes.partial);
    expect(result.stderr).toMatch(/^999999: NotFoundError: 404 /m);
    expect(result.stderr).toContain(`wrote 2 records to ${file}`);
    expect(sqliteRows(file, 'SELECT id FROM journals ORDER BY id')).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('authors get 1 2 -o FILE.parquet: both profiles', async () => {
    const file = join(scratch(), 'authors.parquet');
    await ok(['authors', 'get', '1', '2', '-o', file]);
    const profiles = await jsonlOf(['authors', 'get', '1', '2']);
    expect((await parquetRows(file, ['id', 'name'])).map(({ id, name }) => ({ id, name }))).toEqual(
      profiles.map(({ id, name }) => ({ id, name })),
    );
  });
});
