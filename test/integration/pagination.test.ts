import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';

// The default dataset, so walks cross many pages as they would against the service.
const mock = useMockServer();

const matching = (q: string) =>
  mock.api.dataset.papers.filter((p) => p.title.toLowerCase().includes(q)).length;

describe('paginated walks over real sockets', () => {
  it('for await visits every match exactly once; the count equals total', async () => {
    const client = mock.client();
    const first = await client.papers.search({ q: 'climate', per_page: 100 });
    expect(first.total).toBe(matching('climate'));
    const ids: number[] = [];
    for await (const paper of client.papers.search({ q: 'climate', per_page: 100 })) ids.push(paper.id!);
    expect(ids).toHaveLength(first.total);
    expect(new Set(ids).size).toBe(ids.length);
    expect(first.total).toBeGreaterThan(1_000);
  });

  it('.pages() yields whole pages, the last one partial, and no request past the end', async () => {
    const client = mock.client();
    const sizes: number[] = [];
    for await (const page of client.journals.papers(1, { per_page: 7 }).pages()) sizes.push(page.data.length);
    const total = mock.api.dataset.journal(1)!.total_papers;
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
    expect(sizes.slice(0, -1).every((n) => n === 7)).toBe(true);
    const pagesAsked = mock.api.requests.map((r) =>
      Number(new URL(r.path, 'http://x').searchParams.get('page')),
    );
    expect(Math.max(...pagesAsked)).toBe(Math.ceil(total / 7));
  });

  it('getNextPage follows hasNextPage to the end of the author list (fixed pages of 20)', async () => {
    let page = await mock.client().authors.list({ field_id: 1 });
    let seen = page.data.length;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      seen += page.data.length;
    }
    expect(seen).toBe(mock.api.dataset.authors.filter((a) => a.field_id === 1).length);
    expect(page.total).toBe(seen);
  });

  it('breaking out of a walk stops further requests', async () => {
    // Counted as they go out and as they come back, so that the test knows when nothing is in flight
    // rather than guessing it from a quiet spell, which a loaded machine can stretch.
    const flight = { sent: 0, back: 0 };
    const client = mock.client({
      fetch: async (input, init) => {
        flight.sent++;
        try {
          return await globalThis.fetch(input, init);
        } finally {
          flight.back++;
        }
      },
    });
    let count = 0;
    for await (const _paper of client.papers.search({ q: 'neural', per_page: 10 })) {
      if (++count === 25) break;
    }
    // Pages fetched ahead may still land; a walk that went on would send its next one as they do.
    const started = performance.now();
    while (flight.back < flight.sent) {
      // A hang guard, not a speed claim.
      if (performance.now() - started > 15_000) throw new Error('requests still in flight after 15 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const made = flight.sent;
    expect(made).toBeGreaterThanOrEqual(3); // the 25 items came in pages of 10
    expect(made).toBeLessThan(10); // the walk had about 120 pages to go
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(flight.sent).toBe(made);
  });

  it('a start page past the end is empty with the true total', async () => {
    const page = await mock.client().papers.search({ q: 'graph', page: 10_000 });
    expect(page.data).toEqual([]);
    expect(page.total).toBe(matching('graph'));
    expect(page.hasNextPage()).toBe(false);
  });
});
