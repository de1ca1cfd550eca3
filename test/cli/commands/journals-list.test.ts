import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';
import { asCells, csvRecords } from '../records.js';

const mock = useMockServer({ sizes: { journals: 12, papers: 200, authors: 20 } });

describe('scholarly-metrics journals list', () => {
  it('writes every journal as JSON lines, JSON and CSV', async () => {
    const expected = await mock.client().journals.list();
    const jsonl = await run(['journals', 'list'], { url: mock.server.url });
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(jsonLines(jsonl.stdout)).toEqual(expected);
    const json = await run(['journals', 'list', '--format', 'json'], { url: mock.server.url });
    expect(JSON.parse(json.stdout)).toEqual(expected);
    const csv = await run(['journals', 'list', '--format', 'csv'], { url: mock.server.url });
    const rows = csvRecords(csv.stdout);
    expect(rows).toEqual(expected.map((journal) => asCells(journal, Object.keys(rows[0]!))));
  });

  it('--limit: the first n journals; no other paging options (the endpoint answers with the whole list)', async () => {
    const expected = await mock.client().journals.list();
    const result = await run(['journals', 'list', '--limit', '3'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected.slice(0, 3));
    const paged = await run(['journals', 'list', '--page', '2'], { url: mock.server.url });
    expect(paged.code).toBe(2);
    expect(paged.stderr).toContain("error: unknown option '--page'");
  });

  it('shows an example in --help', async () => {
    const result = await run(['journals', 'list', '--help']);
    expect(result.stdout).toContain('$ scholarly-metrics journals list -o journals.csv');
  });
});
