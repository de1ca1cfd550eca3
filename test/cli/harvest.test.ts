/**
 * A fresh run (no `--resume`) over a file an earlier run wrote starts without that run's checkpoint:
 * stopped before it saves its own (the daily limit on page 1, Ctrl-C before a Parquet row group is
 * written), the same command with `--resume` starts over and completes the file, every record once:
 * the earlier run's checkpoint would have its bytes past the file's end, or call the file complete.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run, runStoppedAt } from './helpers.js';
import { parquetRows } from './output/hyparquet.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 20 } });
const search = ['papers', 'search', '--per-page', '5', '--limit', '15', '--prefetch', '0'];

async function ok(args: string[]) {
  const result = await run(args, { url: mock.server.url });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Runs `args` with the first request answered by a daily limit's 429: exit 75, nothing written. */
async function limitedAtOnce(args: string[]) {
  mock.api.faults.next({ status: 429, headers: { 'retry-after': '7200' } });
  const result = await run(args, { url: mock.server.url });
  expect(result.code, result.stderr).toBe(75);
  expect(result.stderr).toContain('run the same command with --resume');
}

/** The pages of /papers the mock was asked for since its last reset. */
function pagesAsked(): number[] {
  return mock.api.requests
    .map((request) => new URL(request.path, 'http://mock'))
    .filter((url) => url.pathname.endsWith('/papers'))
    .map((url) => Number(url.searchParams.get('page') ?? 1));
}

describe('a fresh run over a file an earlier run wrote, stopped before its first checkpoint', () => {
  it.each(['jsonl', 'csv'])(
    '%s: the daily limit on page 1, then --resume completes the file',
    async (format) => {
      const file = join(scratch(), `out.${format}`);
      await ok([...search, '-o', file]);
      const whole = readFileSync(file, 'utf8');
      await limitedAtOnce([...search, '-o', file]);
      expect(readFileSync(file, 'utf8')).toBe('');
      await ok([...search, '-o', file, '--resume']);
      expect(readFileSync(file, 'utf8')).toBe(whole);
    },
  );

  it('--overwrite of an unfinished run, then the daily limit on page 1: --resume completes the file', async () => {
    const file = join(scratch(), 'out.jsonl');
    await ok([...search, '-o', file]);
    const whole = readFileSync(file, 'utf8');
    const atPage3 = (url: URL) => url.pathname.endsWith('/papers') && url.searchParams.get('page') === '3';
    expect((await runStoppedAt(mock.server, [...search, '-o', file], atPage3)).code).toBe(130);
    await limitedAtOnce([...search, '-o', file, '--overwrite']);
    await ok([...search, '-o', file, '--resume']);
    expect(readFileSync(file, 'utf8')).toBe(whole);
  });

  it('Parquet, stopped by Ctrl-C before its first row group: --resume writes every row once', async () => {
    const file = join(scratch(), 'out.parquet');
    const args = [...search, '--row-group', '20', '-o', file];
    await ok(args);
    const rows = await parquetRows(file);
    expect(rows).toHaveLength(15);
    const atPage3 = (url: URL) => url.pathname.endsWith('/papers') && url.searchParams.get('page') === '3';
    expect((await runStoppedAt(mock.server, args, atPage3)).code).toBe(130);
    await ok([...args, '--resume']);
    expect(await parquetRows(file)).toEqual(rows);
  });

  it('SQLite: the command pages again on --resume, not "nothing left to resume"', async () => {
    const file = join(scratch(), 'm.sqlite');
    await ok([...search, '-o', file]);
    await limitedAtOnce([...search, '-o', file]);
    mock.api.reset();
    const resumed = await ok([...search, '-o', file, '--resume']);
    expect(resumed.stderr).not.toContain('nothing left to resume');
    expect(pagesAsked()).toEqual([1, 2, 3]);
    expect(sqliteRows(file, 'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM papers')).toEqual([
      { n: 15, ids: 15 },
    ]);
  });
});
