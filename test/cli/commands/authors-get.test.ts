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

describe('scholarly-metrics authors get with several ids', () => {
  it('json: an array of the profiles in the order given', async () => {
    const expected = await Promise.all([9, 3].map((id) => mock.client().authors.get(id)));
    const result = await run(['authors', 'get', '9', '3', '--format', 'json'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  it('-q: an id not found is not listed, the error line alone, exit 3', async () => {
    const result = await run(['authors', 'get', '9', '999999', '-q', '--format', 'jsonl'], {
      url: mock.server.url,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('error: RecordsFailedError: 1 of 2 ids were not found\n');
  });
});
