import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 300, authors: 20 } });

describe('scholarly-metrics journals papers', () => {
  it("walks a journal's papers up to --limit", async () => {
    const expected = await mock.client().journals.papers(2, { per_page: 5 }).toArray({ limit: 12 });
    const result = await run(['journals', 'papers', '2', '--per-page', '5', '--limit', '12'], {
      url: mock.server.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
    expect(expected).toHaveLength(12);
  });

  it('shows an example in --help', async () => {
    expect((await run(['journals', 'papers', '--help'])).stdout).toContain(
      '$ scholarly-metrics journals papers 42 --limit 200',
    );
  });
});
