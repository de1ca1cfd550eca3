import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics subjects list', () => {
  it('writes every subject', async () => {
    const expected = await mock.client().subjects.list();
    const result = await run(['subjects', 'list'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
  });

  it('shows an example in --help', async () => {
    expect((await run(['subjects', 'list', '--help'])).stdout).toContain('$ scholarly-metrics subjects list');
  });
});
