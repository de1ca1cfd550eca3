import { describe, expect, it } from 'vitest';
import { MOCK_DOIS } from '../../../src/testing/index.js';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('scholarly-metrics papers get', () => {
  it('writes one paper by DOI, slashes and all', async () => {
    const doi = MOCK_DOIS[0]!;
    const expected = await mock.client().papers.get(doi);
    const result = await run(['papers', 'get', doi, '--format', 'jsonl'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(expected)}\n`);
  });

  it.each([
    ['a doi.org URL', (doi: string) => `https://doi.org/${doi}`],
    ['a dx.doi.org URL, percent-encoded', (doi: string) => `http://dx.doi.org/${encodeURIComponent(doi)}`],
    ['a doi: prefix', (doi: string) => `doi:${doi}`],
  ])('takes the DOI in %s, as get-many does', async (_, form) => {
    const doi = MOCK_DOIS[0]!;
    const expected = await mock.client().papers.get(doi);
    const result = await run(['papers', 'get', form(doi), '--format', 'jsonl'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(expected)}\n`);
  });

  it('exits 2 on a string that is not a DOI, before sending anything', async () => {
    const result = await run(['papers', 'get', 'not-a-doi'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: InvalidParameterError: /);
    expect(mock.api.requests).toHaveLength(0);
  });

  it('shows an example in --help', async () => {
    expect((await run(['papers', 'get', '--help'])).stdout).toContain(
      '$ scholarly-metrics papers get 10.1000/abc/def',
    );
  });
});
