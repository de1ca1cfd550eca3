import { describe, expect, it } from 'vitest';
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
