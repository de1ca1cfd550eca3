/**
 * `--format parquet` (or `-o FILE.parquet`), read back by two readers that are not ours: DuckDB
 * (`read_parquet`, `DESCRIBE`) and hyparquet. Typed columns, `--fields`, and a harvest stopped by a
 * daily limit or by SIGKILL that continues with no row twice and none missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { jsonLines, run, start } from './helpers.js';
import { dailyLimit } from './output/daily-limit.js';
import { duckdb, parquetTypes } from './output/duckdb.js';
import { parquetBytes, parquetRows } from './output/hyparquet.js';
import { scratch } from './resume.js';

const sizes = { journals: 10, papers: 400, authors: 20 };
const mock = useMockServer({ sizes, faults: { latencyMs: 5 } });
const limited = useMockServer({ sizes, limits: dailyLimit(45) });
// Slow enough that a run outlasts its first checkpoint (saved once a second), however fast the machine.
const slow = useMockServer({ sizes, faults: { latencyMs: 60 } });
const search = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0', '--row-group', '20'];

async function jsonlOf(args: string[], url: string): Promise<Record<string, unknown>[]> {
  const result = await run([...args, '--format', 'jsonl'], { url });
  expect(result.code, result.stderr).toBe(0);
  return jsonLines(result.stdout) as Record<string, unknown>[];
}

describe('--format parquet', { timeout: 120_000 }, () => {
  it('writes typed columns that DuckDB and hyparquet read as the records jsonl writes', async () => {
    const file = join(scratch(), 'climate.parquet');
    const result = await run([...search, '-o', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(await parquetTypes(file)).toEqual({
      id: 'BIGINT',
      title: 'VARCHAR',
      authors: 'VARCHAR',
      doi: 'VARCHAR',
      year: 'BIGINT',
      citations: 'BIGINT',
      oa: 'BOOLEAN',
      journal_id: 'BIGINT',
    });
    const expected = await jsonlOf(search, mock.server.url);
    expect(expected).toHaveLength(400);
    expect(await parquetRows(file)).toEqual(expected);
    // Row groups of at least --row-group records, each ended with a page: 400 / 20.
    const metadata = parquetMetadata(parquetBytes(file));
    expect(metadata.row_groups).toHaveLength(20);
    expect(metadata.schema.find((element) => element.name === 'oa')?.type).toBe('BOOLEAN');
    expect(await duckdb(`SELECT count(*) AS n, count(DISTINCT id) AS ids FROM '${file}'`)).toEqual([
      { n: '400', ids: '400' },
    ]);
  });

  it('writes dates as DATE (a score history, a row per point) and applies --fields', async () => {
    const folder = scratch();
    const score = join(folder, 'score.parquet');
    expect((await run(['journals', 'score', '3', '-o', score], { url: mock.server.url })).code).toBe(0);
    expect(await parquetTypes(score)).toEqual({ journal_id: 'BIGINT', date: 'DATE', score: 'BIGINT' });
    const points = await jsonlOf(['journals', 'score', '3'], mock.server.url);
    const read = await duckdb(`SELECT journal_id, strftime(date, '%Y-%m-%d') AS date, score FROM '${score}'`);
    expect(read).toEqual(points.map((point) => ({ ...point, journal_id: '3', score: String(point.score) })));

    const some = join(folder, 'some.parquet');
    const fields = ['papers', 'search', '--limit', '30', '--fields', 'title,id', '--format', 'parquet'];
    expect((await run([...fields, '-o', some], { url: mock.server.url })).code).toBe(0);
    expect(await parquetTypes(some)).toEqual({ title: 'VARCHAR', id: 'BIGINT' });
    expect(await parquetRows(some)).toHaveLength(30);
  });

  it('writes a file only: without --output it is a usage error, before any request', async () => {
    const before = mock.api.requests.length;
    const result = await run(['papers', 'search', '--format', 'parquet'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--format parquet writes a file: add --output FILE.parquet');
    expect(mock.api.requests.length).toBe(before);
  });

  it('continues after a daily-limit 429 (exit 75): no row twice, none missing', async () => {
    const file = join(scratch(), 'out.parquet');
    const args = [...search, '-o', file, '--resume'];
    const first = await run(args, { url: limited.server.url });
    expect(first.code, first.stderr).toBe(75);
    // Stopped mid-file: the footer is not written yet.
    expect(readFileSync(file).subarray(-4).toString()).not.toBe('PAR1');
    limited.api.reset();
    const second = await run(args, { url: limited.server.url });
    expect(second.code, second.stderr).toBe(0);
    expect(await parquetRows(file)).toEqual(await jsonlOf(search, mock.server.url));
  });

  it('continues after SIGKILL of the bin mid-file: no row twice, none missing', async () => {
    const file = join(scratch(), 'out.parquet');
    const args = [...search, '-o', file, '--resume'];
    const first = start(args, { url: slow.server.url });
    let ended = false;
    void first.exited.then(() => {
      ended = true;
    });
    // Killed once a checkpoint past its second row group is saved: mid-file, never after a time.
    const position = () =>
      existsSync(`${file}.checkpoint.json`)
        ? (JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8')) as { position: number }).position
        : 0;
    while (position() < 9 && !ended) await new Promise((resolve) => setTimeout(resolve, 10));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const second = await run(args, { url: slow.server.url });
    expect(second.code, second.stderr).toBe(0);
    const rows = await parquetRows(file);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(rows).toEqual(await jsonlOf(search, mock.server.url));
  });
});
