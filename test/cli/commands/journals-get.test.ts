import { describe, expect, it } from 'vitest';
import { UNKNOWN_KEY, useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';
import { asCells, csvRecords } from '../records.js';

const mock = useMockServer({ sizes: { journals: 12, papers: 200, authors: 20 } });

describe('scholarly-metrics journals get', () => {
  it('writes one profile as JSON on a pipe, and as one CSV row with nested values as JSON', async () => {
    const expected = await mock.client().journals.get(3);
    const json = await run(['journals', 'get', '3'], { url: mock.server.url });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(expected);
    const csv = await run(['journals', 'get', '3', '--format', 'csv'], { url: mock.server.url });
    expect(csvRecords(csv.stdout)).toEqual([asCells(expected, Object.keys(expected))]);
  });

  it('exits 1 with the error class on a 404, and 2 on an id that is not one', async () => {
    const missing = await run(['journals', 'get', '999999'], { url: mock.server.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: NotFoundError: .+\n$/);
    const bad = await run(['journals', 'get', 'x42'], { url: mock.server.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'x42' is invalid for argument 'id'. expected a whole number, e.g. 42.");
  });

  it('reads an id as the options that take one read it: 007 is 7, -0 is 0', async () => {
    const padded = await run(['journals', 'get', '007', '--format', 'jsonl'], { url: mock.server.url });
    expect(padded.code, padded.stderr).toBe(0);
    expect(JSON.parse(padded.stdout).id).toBe(7);
    const zero = await run(['journals', 'get', '--', '-0'], { url: mock.server.url });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toMatch(/^error: NotFoundError: .*id 0\n$/);
  });

  it('shows an example in --help', async () => {
    expect((await run(['journals', 'get', '--help'])).stdout).toContain(
      '$ scholarly-metrics journals get 42',
    );
  });
});

describe('scholarly-metrics journals get with several ids', () => {
  it('csv: one table, a row per journal, one header; jsonl: a line per journal', async () => {
    const expected = await Promise.all([2, 7, 4].map((id) => mock.client().journals.get(id)));
    const csv = await run(['journals', 'get', '2', '7', '4', '--format', 'csv'], { url: mock.server.url });
    expect(csv.code, csv.stderr).toBe(0);
    const rows = csvRecords(csv.stdout);
    expect(rows.map((row) => row.id)).toEqual(['2', '7', '4']);
    expect(rows[1]).toEqual(asCells(expected[1]!, Object.keys(rows[1]!)));
    const jsonl = await run(['journals', 'get', '2', '7', '--format', 'jsonl'], { url: mock.server.url });
    expect(jsonLines(jsonl.stdout)).toEqual(expected.slice(0, 2));
  });

  it('on a terminal, each journal as for one id, under a line naming it', async () => {
    const terminal = { stdout: true, columns: 100 };
    const fields = ['--fields', 'id,name,quartile'];
    const one = await run(['journals', 'get', '5', ...fields], { url: mock.server.url, terminal });
    const many = await run(['journals', 'get', '2', '5', ...fields], { url: mock.server.url, terminal });
    expect(many.code, many.stderr).toBe(0);
    const [first, second] = many.stdout.split('\n\n');
    expect(first).toMatch(/^id 2\nid {8}2\nname {6}.+\nquartile {2}Q\d$/);
    expect(second).toBe(`id 5\n${one.stdout}`);
  });

  it('one id alone is written as before: one JSON document, not an array', async () => {
    const one = await run(['journals', 'get', '3'], { url: mock.server.url });
    expect(Array.isArray(JSON.parse(one.stdout))).toBe(false);
  });

  it('a 401 ends the whole command (exit 1), as for one id', async () => {
    const result = await run(['journals', 'get', '2', '3'], { url: mock.server.url, key: UNKNOWN_KEY });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
  });
});
