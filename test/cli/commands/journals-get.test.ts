import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';
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
    expect(bad.stderr).toContain(
      "'x42' is invalid for argument 'id'. expected a positive whole number, e.g. 42.",
    );
  });

  it('shows an example in --help', async () => {
    expect((await run(['journals', 'get', '--help'])).stdout).toContain(
      '$ scholarly-metrics journals get 42',
    );
  });
});
