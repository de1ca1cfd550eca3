/**
 * Values a typed column cannot hold (a search's results have no published shape: a server may send a
 * year as text): Parquet and SQLite store the same null for each, and the run says how many, by column.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeftOutFields } from '../../../src/cli/output/cells.js';
import { storedValue, UnfitValues } from '../../../src/cli/output/typed-values.js';
import { useRealServer } from '../../support.js';
import { run } from '../helpers.js';
import { scratch } from '../resume.js';
import { parquetRows } from './hyparquet.js';
import { sqliteRows } from './sqlite-rows.js';

/**
 * A search whose results are `pages` (the shape of a result is not published: anything goes), each
 * page as asked for by `page`, with the count of them all as `total`.
 */
function searchPages(pages: readonly (readonly unknown[])[]) {
  const total = pages.reduce((sum, page) => sum + page.length, 0);
  return (req: IncomingMessage, res: ServerResponse) => {
    const page = Number(new URL(req.url ?? '/', 'http://localhost').searchParams.get('page') ?? 1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: pages[page - 1] ?? [], total }));
  };
}

/** Each way a search reaches a database: Parquet and SQLite files (every page), and `sync`. */
const databaseRuns = [
  ['parquet', (file: string) => ['papers', 'search', '--q', 'x', '--all', '-o', file]],
  ['sqlite', (file: string) => ['papers', 'search', '--q', 'x', '--all', '-o', file]],
  ['sync', (file: string) => ['sync', file, 'papers', '--q', 'x']],
] as const;

/** Runs `args` into a fresh file of `format` against `base`; its result, and its rows' id and title. */
async function intoDatabase(format: string, args: (file: string) => readonly string[], base: string) {
  const file = join(scratch(), `papers.${format === 'parquet' ? 'parquet' : 'sqlite'}`);
  const result = await run([...args(file)], { url: base });
  expect(result.code, result.stderr).toBe(0);
  const rows =
    format === 'parquet'
      ? await parquetRows(file, ['id', 'title'])
      : sqliteRows(file, 'SELECT id, title FROM papers ORDER BY id');
  return { stderr: result.stderr, rows };
}

describe('storedValue', () => {
  it.each<[unknown, Parameters<typeof storedValue>[1], unknown]>([
    [2020, 'integer', 2020],
    ['2020', 'integer', null],
    [1.5, 'integer', null],
    [2 ** 53, 'integer', null],
    [1.5, 'double', 1.5],
    [true, 'boolean', true],
    ['yes', 'boolean', null],
    ['2024-05-01T12:00:00Z', 'date', '2024-05-01'],
    ['2024-13-45', 'date', null],
    ['2024-02-30', 'date', null],
    ['2023-02-29', 'date', null],
    ['2024-02-29', 'date', '2024-02-29'],
    ['1969-12-31T23:30:00-05:00', 'date', '1969-12-31'],
    ['May 2024', 'date', null],
    [{ a: 1 }, 'json', '{"a":1}'],
    [undefined, 'text', null],
  ])('%o as %s: %o', (value, type, stored) => {
    expect(storedValue(value, type)).toEqual(stored);
  });
});

describe('values their typed column cannot hold', () => {
  const server = useRealServer();
  const papers = [
    { id: 1, title: 'Fits', year: 2020, citations: 3, oa: true },
    { id: 2, title: 'Text year', year: '2021', citations: 1.5, oa: 'yes' },
  ];

  it.each(['parquet', 'sqlite'])('%s: the same nulls, and a warning naming each column', async (format) => {
    server.serve(searchPages([papers]));
    const file = join(scratch(), `papers.${format}`);
    const result = await run(['papers', 'search', '--q', 'x', '-o', file], { url: server.base });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "warning: written as null, not of their column's type: year (integer) 1, citations (integer) 1, oa (boolean) 1\n",
    );
    const rows =
      format === 'sqlite'
        ? sqliteRows(file, 'SELECT id, year, citations, oa FROM papers ORDER BY id')
        : // Booleans as SQLite keeps them, 0 and 1.
          (await parquetRows(file, ['id', 'year', 'citations', 'oa'])).map(({ oa, ...row }) => ({
            ...row,
            oa: oa === null ? null : Number(oa),
          }));
    expect(rows).toEqual([
      { id: 1, year: 2020, citations: 3, oa: 1 },
      { id: 2, year: null, citations: null, oa: null },
    ]);
  });
});

describe('values their typed column cannot hold, kept current by sync', () => {
  const server = useRealServer();

  it('stores null and warns by column, as a harvest does', async () => {
    const papers = [{ id: 7, title: 'Text year', year: '2021', citations: 4, oa: false }];
    server.serve(searchPages([papers]));
    const file = join(scratch(), 'metrics.sqlite');
    const result = await run(['sync', file, 'papers', '--q', 'x'], { url: server.base });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "warning: written as null, not of their column's type: year (integer) 1\n",
    );
    expect(sqliteRows(file, 'SELECT id, year, citations, oa FROM papers')).toEqual([
      { id: 7, year: null, citations: 4, oa: 0 },
    ]);
  });
});

describe('search results without their key (the shape of a result is not published)', () => {
  const server = useRealServer();
  const papers = [
    { id: 1, title: 'Keyed', year: 2020 },
    { doi: '10.1000/a', title: 'No id', year: 2021 },
    { id: 'p-3', title: 'A text id', year: 2022 },
  ];

  it.each([
    ['a harvest', (file: string) => ['papers', 'search', '--q', 'x', '-o', file, '--overwrite']],
    ['sync', (file: string) => ['sync', file, 'papers', '--q', 'x']],
  ])('%s: not written to the database, however many runs, and counted in a warning', async (_, args) => {
    server.serve(searchPages([papers]));
    const file = join(scratch(), 'metrics.sqlite');
    for (let run_ = 0; run_ < 3; run_++) {
      const result = await run(args(file), { url: server.base });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        'warning: list elements not written: 2 without id (a jsonl export keeps them)\n',
      );
      expect(result.stderr).not.toContain('written as null');
    }
    expect(sqliteRows(file, 'SELECT id, title FROM papers')).toEqual([{ id: 1, title: 'Keyed' }]);
  });
});

describe('search results that are no object (a string, null): no column can hold them', () => {
  const server = useRealServer();
  const data = ['10.1000/a', null, { id: 1, title: 'Keyed', year: 2020 }, [7]];

  it.each(databaseRuns)('%s: the records written, the others counted in a warning', async (format, args) => {
    server.serve(searchPages([data]));
    const { stderr, rows } = await intoDatabase(format, args, server.base);
    expect(stderr).toContain(
      'warning: list elements not written: 3 that are no object (a jsonl export keeps them)\n',
    );
    expect(rows).toEqual([{ id: 1, title: 'Keyed' }]);
  });
});

describe('fields a later page holds beside the columns of the first (csv)', () => {
  const server = useRealServer();

  it('writes the columns of the first page and warns of what it left out', async () => {
    const pages = [[{ id: 1, title: 'A' }], [{ id: 2, title: 'B', venue: 'X' }]];
    server.serve(searchPages(pages));
    const file = join(scratch(), 'papers.csv');
    const result = await run(['papers', 'search', '--q', 'x', '--all', '-o', file], { url: server.base });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'warning: fields with no column, left out (the first page set the columns): "venue" 1\n',
    );
  });
});

describe('fields beside the typed columns (Parquet, SQLite): not written, and said', () => {
  const server = useRealServer();
  const pages = [[{ id: 1, title: 'A', venue: 'X' }], [{ id: 2, title: 'B', venue: 'Y', score: 3 }]];

  it.each(databaseRuns)(
    '%s: the typed columns written, a warning naming the others',
    async (format, args) => {
      server.serve(searchPages(pages));
      const { stderr, rows } = await intoDatabase(format, args, server.base);
      expect(stderr).toContain(
        'warning: fields with no column, left out (the columns are the API document\'s fields; a jsonl export keeps them all): "venue" 2, "score" 1\n',
      );
      expect(rows).toEqual([
        { id: 1, title: 'A' },
        { id: 2, title: 'B' },
      ]);
    },
  );

  it.each(['parquet', 'sqlite'])(
    '%s: says nothing with --fields, which names what is written',
    async (format) => {
      server.serve(searchPages(pages));
      const file = join(scratch(), `papers.${format}`);
      const args = ['papers', 'search', '--q', 'x', '--all', '--fields', 'id,title', '-o', file];
      const result = await run(args, { url: server.base });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('warning:');
    },
  );
});

describe('the counts the warnings give', () => {
  it('are grouped by thousands, as every count the command line says', () => {
    const unfit = new UnfitValues();
    for (let i = 0; i < 1_200; i++) unfit.note('year', 'integer');
    unfit.noteUnkeyed(['id'], 12_345);
    unfit.noteNotRecords(1_001);
    const leftOut = new LeftOutFields();
    leftOut.note(
      Array.from({ length: 2_500 }, () => ({ extra: 1 })),
      new Set(),
    );
    expect(unfit.describe()).toBe('year (integer) 1,200');
    expect(unfit.describeUnwritten()).toBe('12,345 without id, 1,001 that are no object');
    expect(leftOut.warning()).toContain('"extra" 2,500');
  });
});
