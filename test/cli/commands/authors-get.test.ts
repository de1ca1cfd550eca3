import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics authors get', () => {
  it("writes one author's profile", async () => {
    const expected = await mock.client().authors.get(9);
    const result = await run(['authors', 'get', '9'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('shows an example in --help', async () => {
    expect((await run(['authors', 'get', '--help'])).stdout).toContain(
      '$ scholarly-metrics authors get 1234',
    );
  });
});
