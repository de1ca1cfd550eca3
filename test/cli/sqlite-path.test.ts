/**
 * The path of a SQLite database (`--format sqlite -o PATH`, `sync PATH`) is a file path: node:sqlite
 * reads "" as a database that is deleted on close, and `:memory:` or a `file:` URI as a database in
 * memory or another file. An empty path is a usage error (exit 2) before any request; `:memory:` and
 * `file:…` are files of those names in the working folder, as `-o` is for every other format.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../helpers/cleanup.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { sqliteRows } from './output/sqlite-rows.js';
import { scratch } from './resume.js';

const sizes = { journals: 6, papers: 20, authors: 5 };
const mock = useMockServer({ sizes });

/** Runs the test in a scratch folder of its own, the working folder given back after it. */
function inScratch(): string {
  const folder = scratch();
  const before = process.cwd();
  process.chdir(folder);
  afterThisTest(() => process.chdir(before));
  return folder;
}

const count = (path: string, table: string) =>
  Number(sqliteRows(path, `SELECT count(*) AS n FROM ${table}`)[0]?.n);

describe('the path of a SQLite database', { timeout: 120_000 }, () => {
  it('-o "" with --format sqlite: exit 2 naming --output, no file', async () => {
    const folder = inScratch();
    const result = await run(['journals', 'list', '--format', 'sqlite', '-o', ''], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --output needs a file path, not an empty one\n');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('-o "" with --format sqlite on a harvest: exit 2 before any request', async () => {
    const folder = inScratch();
    const before = mock.api.requests.length;
    const result = await run(['papers', 'search', '--q', 'a', '--all', '--format', 'sqlite', '-o', ''], {
      url: mock.server.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --output needs a file path, not an empty one\n');
    expect(mock.api.requests.length - before).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
  });

  it.each([
    [['journals', 'list', '--format', 'sqlite', '-o', '-']],
    [['journals', 'get', '3', '--format', 'sqlite', '-o', '-']],
    [['papers', 'search', '--q', 'a', '--all', '--format', 'sqlite', '-o', '-']],
    // Every other format alike, the commands of one request too.
    [['journals', 'get', '3', '4', '--format', 'parquet', '-o', '-']],
    [['journals', 'get', '3', '-o', '-']],
    [['journals', 'list', '--format', 'csv', '-o', '-']],
    [['papers', 'get-many', '10.1000/x', '-o', '-']],
  ])('%j: exit 2 as for every format, before any request, no file', async (args) => {
    const folder = inScratch();
    const before = mock.api.requests.length;
    const result = await run(args, { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --output - is standard output: leave --output out instead\n');
    expect(mock.api.requests.length - before).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
  });

  const emptyPath = 'sync DB needs a file path, not an empty one';
  const dash = 'sync DB - is standard output, which cannot hold a database: give a file path';
  it.each([
    [['sync', '', 'journals'], emptyPath],
    [['sync', ''], emptyPath],
    [['sync', '-', 'journals'], dash],
    [['sync', '-'], dash],
  ])('%j: exit 2 naming sync DB, no request, no file', async (args, refusal) => {
    const folder = inScratch();
    const before = mock.api.requests.length;
    const result = await run(args, { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: ${refusal}\n`);
    expect(mock.api.requests.length - before).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
  });

  it.each([':memory:', 'file:journals.sqlite?mode=memory'])(
    '-o %s: the records are in a file of that name in the working folder',
    async (name) => {
      const folder = inScratch();
      const result = await run(['journals', 'list', '--format', 'sqlite', '-o', name], {
        url: mock.server.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`wrote ${sizes.journals} journals to ${name}`);
      expect(count(join(folder, name), 'journals')).toBe(sizes.journals);
    },
  );

  it('sync :memory: journals: the database is the file :memory:, its lock file beside it', async () => {
    const folder = inScratch();
    const result = await run(['sync', ':memory:', 'journals'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(count(join(folder, ':memory:'), 'journals')).toBe(sizes.journals);
    expect(count(join(folder, ':memory:'), 'sync_runs')).toBe(1);
    expect(existsSync(join(folder, ':memory:-sync'))).toBe(true);
    // The next run finds what the first one wrote.
    const again = await run(['sync', ':memory:'], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
    expect(count(join(folder, ':memory:'), 'sync_runs')).toBe(2);
  });
});
