import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics journals score', () => {
  it('gives the data alone off a terminal', async () => {
    const expected = await mock.client().journals.score(4);
    const result = await run(['journals', 'score', '4'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('with --format table: the fields and the history as a table, no chart', async () => {
    const { current, history } = await mock.client().journals.score(4);
    const result = await run(['journals', 'score', '4', '--format', 'table'], { url: mock.server.url });
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^current +${current}$`));
    expect(lines).toContain('DATE        SCORE');
    // Scores are numbers: right-aligned under their header.
    expect(lines).toContain(`${history[0]!.date}  ${String(history[0]!.score).padStart(5)}`);
    expect(result.stdout).not.toMatch(/[┤╮╯]/);
  });

  it('shows an example in --help', async () => {
    expect((await run(['journals', 'score', '--help'])).stdout).toContain(
      '$ scholarly-metrics journals score 42',
    );
  });
});
