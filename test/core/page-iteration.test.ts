import { describe, expect, it } from 'vitest';
import type { Page, PaperSummary } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

function mockClient() {
  const api = createMockApi();
  return {
    api,
    client: testClient({}, api),
  };
}

describe('an awaited Page is async-iterable', () => {
  it('yields this page’s items, then those of every page after it', async () => {
    const { client } = mockClient();
    const all = await client.journals.papers(1).toArray({ limit: Number.POSITIVE_INFINITY });
    expect(all.length).toBeGreaterThan(3);
    const page = await client.journals.papers(1, { page: 2, per_page: 2 });
    const seen: number[] = [];
    for await (const paper of page) seen.push(paper.id);
    expect(seen).toEqual(all.slice(2).map((paper) => paper.id));
  });

  it('stops requesting when the loop is left', async () => {
    const { api, client } = mockClient();
    const page: Page<PaperSummary> = await client.papers.search({ q: 'coral', per_page: 2 });
    expect(page.hasNextPage()).toBe(true);
    const before = api.requests.length;
    let count = 0;
    for await (const _paper of page) {
      count++;
      if (count === 3) break;
    }
    // Items 1–2 come from the awaited page, item 3 from page 2: one request more, no page 3.
    expect(api.requests.length - before).toBe(1);
    expect(api.requests.at(-1)?.path).toContain('page=2');
  });
});
