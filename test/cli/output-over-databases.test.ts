/**
 * `--output` naming a SQLite database or a Parquet file that is there already: a run writing another
 * format is refused (exit 2, naming the file and the --format that fits), the file as it was, rather
 * than written over with text. `.sqlite3` is a SQLite database's name, as `.sqlite` and `.db` are.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { clipboardName, expectNameEscaped } from './output/hostile.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const sizes = { journals: 6, papers: 60, authors: 5 };
const mock = useMockServer({ sizes });
const search = ['papers', 'search', '--per-page', '10', '--limit', '20', '--prefetch', '0'];

async function ok(args: string[]) {
  const result = await run(args, { url: mock.server.url });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

const count = (path: string, table: string) =>
  Number(sqliteRows(path, `SELECT count(*) AS n FROM ${table}`)[0]?.n);

const sqliteRefusal = (file: string) =>
  `error: ${file} is a SQLite database, which this run would write over: give --format sqlite to write into it, or remove it first\n`;
const parquetRefusal = (file: string) =>
  `error: ${file} is a Parquet file, which this run would write over: give --format parquet to write it afresh, or remove it first\n`;

/** Runs `args`, which must be refused with `message` before any request, `file` left as it was. */
async function refused(args: string[], file: string, message: string) {
  const before = readFileSync(file);
  const asked = mock.api.requests.length;
  const result = await run(args, { url: mock.server.url });
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(message);
  expect(readFileSync(file)).toEqual(before);
  return { result, requests: mock.api.requests.length - asked };
}

describe('--output naming a database that is there', { timeout: 120_000 }, () => {
  it('.sqlite3: the database sync made is written into, not over', async () => {
    const file = join(scratch(), 'metrics.sqlite3');
    await ok(['sync', file, 'journals']);
    await ok([...search, '-o', file]);
    expect(count(file, 'journals')).toBe(sizes.journals);
    expect(count(file, 'papers')).toBe(20);
  });

  it('a SQLite database under any name: text and Parquet are refused, before any request of a harvest', async () => {
    const file = join(scratch(), 'metrics.db');
    await ok(['journals', 'list', '-o', file]);
    for (const format of ['jsonl', 'csv', 'json', 'parquet']) {
      const { requests } = await refused(
        [...search, '--format', format, '-o', file],
        file,
        sqliteRefusal(file),
      );
      expect(requests).toBe(0);
    }
    // One request's commands and a name of no format's: refused alike.
    const other = join(scratch(), 'metrics.xlsx');
    writeFileSync(other, readFileSync(file));
    await refused(['journals', 'get', '3', '-o', other], other, sqliteRefusal(other));
    await refused(['journals', 'list', '-o', other], other, sqliteRefusal(other));
  });

  it('a Parquet file: text is refused; --format parquet writes it afresh', async () => {
    const file = join(scratch(), 'papers.pq');
    await ok([...search, '--format', 'parquet', '-o', file]);
    await refused([...search, '-o', file], file, parquetRefusal(file));
    await refused(['journals', 'list', '--format', 'csv', '-o', file], file, parquetRefusal(file));
    await ok(['journals', 'list', '--format', 'parquet', '-o', file]);
    expect(readFileSync(file).subarray(0, 4).toString()).toBe('PAR1');
  });

  it('names the file escaped', async () => {
    const file = join(scratch(), clipboardName);
    await ok(['journals', 'list', '--format', 'sqlite', '-o', file]);
    const result = await run([...search, '-o', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(' is a SQLite database, which this run would write over');
    expectNameEscaped(result.stderr);
  });

  it('a text file, an empty one, a device: written as before', async () => {
    const folder = scratch();
    const text = join(folder, 'old.jsonl');
    writeFileSync(text, 'SQLite format 2\n');
    await ok([...search, '-o', text]);
    const empty = join(folder, 'empty.db.txt');
    writeFileSync(empty, '');
    await ok([...search, '-o', empty]);
    expect(readFileSync(empty, 'utf8').split('\n')).toHaveLength(21);
    await ok([...search, '-o', '/dev/null']);
  });
});
