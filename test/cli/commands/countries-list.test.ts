import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { jsonLines, run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics countries list', () => {
  it('passes --show on', async () => {
    const expected = await mock.client().countries.list({ show: 'all' });
    const result = await run(['countries', 'list', '--show', 'all'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(expected);
  });

  it('refuses another --show, naming the choices', async () => {
    const result = await run(['countries', 'list', '--show', 'some'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Allowed choices are active, all.');
  });

  it('shows an example in --help', async () => {
    expect((await run(['countries', 'list', '--help'])).stdout).toContain(
      '$ scholarly-metrics countries list --show all',
    );
  });
});
