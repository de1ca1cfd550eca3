import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

/** A client of the mock holding `total` papers: `/papers` gives `per_page` (or 20) a page, any page alone. */
function searchOf(total: number) {
  return testClient({ maxRetries: 0 }, createMockApi({ sizes: { papers: total } }));
}

describe('a page fetched alone by number', () => {
  it('answers from total and per_page: page 59 of 1,161 results at 20 a page is the last', async () => {
    const client = searchOf(1_161);
    const last = await client.papers.search({ page: 59, per_page: 20 });
    expect(last.data).toHaveLength(1);
    expect(last.hasNextPage()).toBe(false);
    expect(last.toJSON().nextPage).toBeUndefined();
    const before = await client.papers.search({ page: 58, per_page: 20 });
    expect(before.hasNextPage()).toBe(true);
    expect(before.toJSON().nextPage).toBe(59);
  });

  it('a full page at the end of an exact total is the last', async () => {
    const client = searchOf(1_160);
    expect((await client.papers.search({ page: 58, per_page: 20 })).hasNextPage()).toBe(false);
    expect((await client.papers.search({ page: 58 })).hasNextPage()).toBe(false);
  });
});

describe('Page.toJSON', () => {
  it('is the plain { data, total, page, nextPage }, what JSON.stringify writes', async () => {
    const client = searchOf(45);
    const first = await client.papers.search({ per_page: 20 });
    const plain = first.toJSON();
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(plain).toEqual({ data: first.data, total: 45, page: 1, nextPage: 2 });
    expect(JSON.parse(JSON.stringify(first))).toEqual(JSON.parse(JSON.stringify(plain)));
    expect(structuredClone(plain)).toEqual(plain);
  });

  it('follows a walk: nextPage undefined on its last page, as hasNextPage says', async () => {
    const client = searchOf(45);
    const pages = [];
    for await (const page of client.papers.search({ per_page: 20 }).pages()) pages.push(page.toJSON());
    expect(pages.map(({ page, nextPage, data }) => [page, nextPage, data.length])).toEqual([
      [1, 2, 20],
      [2, 3, 20],
      [3, undefined, 5],
    ]);
  });
});
