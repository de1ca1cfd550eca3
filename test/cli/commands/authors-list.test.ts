import { describe, expect, it } from 'vitest';
import { integer } from '../../../src/cli/options.js';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 200 } });

describe('scholarly-metrics authors list', () => {
  it('filters by country and walks --limit items', async () => {
    const expected = await mock.client().authors.list({ country_id: 7 }).toArray({ limit: 30 });
    const result = await run(['authors', 'list', '--country-id', '7', '--limit', '30'], {
      url: mock.server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
  });

  it('takes any whole number as a filter id (the API document says no more), and refuses other values', async () => {
    for (const id of ['0', '-3']) {
      const result = await run(['authors', 'list', `--country-id=${id}`, '--field-id', id], {
        url: mock.server.url,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
    }
    // -0 is 0, as sent and as saved in a checkpoint: the same run as --country-id 0.
    expect(integer()('-0')).toBe(0);
    expect(Object.is(integer()('-0'), -0)).toBe(false);
    const bad = await run(['authors', 'list', '--field-id', '1.5'], { url: mock.server.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "option '--field-id <id>' argument '1.5' is invalid. expected a whole number.",
    );
  });

  it('has no --per-page: the endpoint takes none', async () => {
    const result = await run(['authors', 'list', '--per-page', '5'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown option '--per-page'");
  });

  it('shows an example in --help', async () => {
    expect((await run(['authors', 'list', '--help'])).stdout).toContain(
      '$ scholarly-metrics authors list --q okafor --country-id 7',
    );
  });
});
