import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';
import { asCells, csvRecords } from '../records.js';

const mock = useMockServer({ sizes: { journals: 20, papers: 500, authors: 50 } });
const query = { q: 'coral', per_page: 7 };
const args = ['papers', 'search', '--q', 'coral', '--per-page', '7'];

describe('scholarly-metrics papers search', () => {
  it('writes the first page by default, as JSON lines on a pipe', async () => {
    const expected = (await mock.client().papers.search(query)).data;
    const result = await run(args, { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
    // No progress and no hint on a pipe.
    expect(result.stderr).toBe('');
  });

  it('walks --all pages, and --limit items across pages', async () => {
    const client = mock.client();
    const all = await client.papers.search(query).toArray({ limit: Number.POSITIVE_INFINITY });
    expect(all.length).toBeGreaterThan(14);
    const every = await run([...args, '--all'], { url: mock.server.url });
    expect(jsonLines(every.stdout)).toEqual(all);
    const before = mock.api.requests.length;
    const limited = await run([...args, '--limit', '10', '--format', 'json'], { url: mock.server.url });
    expect(JSON.parse(limited.stdout)).toEqual(all.slice(0, 10));
    // --limit 10 at 7 a page: two pages, not one more.
    expect(mock.api.requests.slice(before).map((r) => r.path)).toEqual([
      '/api/v1/papers?q=coral&page=1&per_page=7',
      '/api/v1/papers?q=coral&page=2&per_page=7',
    ]);
  });

  it('writes CSV (RFC 4180, one header row) that reads back as the records', async () => {
    const expected = await mock.client().papers.search(query).toArray({ limit: 20 });
    const result = await run([...args, '--limit', '20', '--format', 'csv'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    const rows = csvRecords(result.stdout);
    const columns = Object.keys(rows[0]!);
    expect(rows).toEqual(expected.map((record) => asCells(record, columns)));
    expect(result.stdout.split('\r\n')[0]).toBe(columns.join(','));
  });

  it('starts at --page and passes the filters on', async () => {
    const expected = (await mock.client().papers.search({ ...query, year: 2020, oa: true, page: 2 })).data;
    const result = await run([...args, '--year', '2020', '--oa', 'true', '--page', '2'], {
      url: mock.server.url,
    });
    expect(jsonLines(result.stdout)).toEqual(expected);
  });

  it('refuses a bad value, naming what is allowed, with exit 2', async () => {
    const oa = await run([...args, '--oa', 'yes'], { url: mock.server.url });
    expect(oa.code).toBe(2);
    expect(oa.stderr).toContain(
      "option '--oa <true|false>' argument 'yes' is invalid. expected true or false.",
    );
    const both = await run([...args, '--all', '--limit', '3'], { url: mock.server.url });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('error: --all and --limit exclude each other');
    // Year 0 is no year of publication (the mock refuses it with a 400): refused before sending.
    const yearZero = await run([...args, '--year', '0'], { url: mock.server.url });
    expect(yearZero.code).toBe(2);
    expect(yearZero.stderr).toContain('--year');
    expect(mock.api.requests).toHaveLength(0);
  });

  it('shows an example in --help', async () => {
    const result = await run(['papers', 'search', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Examples:\n  $ scholarly-metrics papers search coral reefs --year 2024');
    expect(result.stdout).toContain('--per-page <n>');
  });
});
