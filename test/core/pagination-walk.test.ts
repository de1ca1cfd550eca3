// Walking the pages of a list: where a walk ends, what it asks for ahead, and how it stops.
import { getEventListeners } from 'node:events';
import { delay, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError, NotFoundError, RequestAbortedError } from '../../src/index.js';
import { BASE, json, testClient, useMsw } from '../support.js';
import { collect, honest, journalPapersOn, paper } from './pagination-setup.js';

const server = useMsw();
const journalPapers = journalPapersOn(server);

describe('walking', () => {
  it('yields every item of every page in order', async () => {
    const asked = journalPapers(honest(25));
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }));
    expect(items.map((p) => p.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });

  it('pages() yields whole pages', async () => {
    journalPapers(honest(25));
    const pages = await collect(testClient().journals.papers(1, { per_page: 10 }).pages());
    expect(pages.map((p) => [p.page, p.data.length])).toEqual([
      [1, 10],
      [2, 10],
      [3, 5],
    ]);
  });

  it('ends on an empty page even when total says there is more', async () => {
    const asked = journalPapers((page) => ({ data: page <= 2 ? [paper(page)] : [], total: 1_000 }));
    const items = await collect(testClient().journals.papers(1, { per_page: 1 }, { prefetch: 0 }));
    expect(items.map((p) => p.id)).toEqual([1, 2]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('ends when a total that grows every page has been reached (the first total bounds the walk)', async () => {
    const asked = journalPapers((page, perPage) => ({
      data: Array.from({ length: perPage }, (_, i) => paper((page - 1) * perPage + i + 1)),
      total: 20 + page * 10,
    }));
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }));
    expect(items).toHaveLength(30);
    expect(Math.max(...asked)).toBe(3);
  });

  it('ends after one page when total is 0 but data came', async () => {
    const asked = journalPapers(() => ({ data: [paper(1), paper(2)], total: 0 }));
    const items = await collect(testClient().journals.papers(1));
    expect(items.map((p) => p.id)).toEqual([1, 2]);
    expect(asked).toEqual([1]);
  });

  it('ends at the first repeat when the same page is served again and again (page ignored)', async () => {
    const asked = journalPapers(() => ({ data: [paper(1), paper(2)], total: 1_000_000 }));
    const items = await collect(testClient().journals.papers(1, { per_page: 2 }, { prefetch: 0 }));
    expect(items.map((p) => p.id)).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
    const first = await testClient().journals.papers(1, { per_page: 2 });
    const again = await first.getNextPage();
    expect(again.hasNextPage()).toBe(false);
    // Followed by hand, as hasNextPage's own example does: the repeat comes back empty, no item twice.
    expect(again.data).toEqual([]);
    let page = await testClient().journals.papers(1, { per_page: 2 });
    const byHand = [...page.data];
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      byHand.push(...page.data);
    }
    expect(byHand.map((p) => p.id)).toEqual([1, 2]);
  });

  it('ends at a page shorter than the first, whatever total says', async () => {
    const sizes = [5, 2, 7, 1, 5];
    const asked = journalPapers((page) => ({
      data: Array.from({ length: sizes[page - 1] ?? 0 }, (_, i) => paper(page * 100 + i)),
      total: 20,
    }));
    const items = await collect(testClient().journals.papers(1, { per_page: 5 }, { prefetch: 0 }));
    expect(items).toHaveLength(7);
    expect(asked).toEqual([1, 2]);
  });

  it('takes the first page as the page size when the server serves fewer than per_page', async () => {
    // A server that caps per_page: 4 items a page for per_page 10, total 10.
    const asked = journalPapers((page) => ({
      data: Array.from({ length: Math.min(4, 10 - (page - 1) * 4) }, (_, i) => paper(page * 100 + i)),
      total: 10,
    }));
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }, { prefetch: 0 }));
    expect(items).toHaveLength(10);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a walk begun past page 1 on a server serving fewer than per_page still reaches the end', async () => {
    // The same cap, 4 items a page for per_page 10, total 20 (pages 1 to 5): page 2 alone cannot tell a
    // cap from the last page; page 3, as short, shows the cap, so the walk goes on to page 5.
    const asked = journalPapers((page) => ({
      data: Array.from({ length: Math.max(0, Math.min(4, 20 - (page - 1) * 4)) }, (_, i) =>
        paper(page * 100 + i),
      ),
      total: 20,
    }));
    const items = await collect(testClient().journals.papers(1, { page: 2, per_page: 10 }, { prefetch: 0 }));
    expect(items.map((item) => item.id)).toEqual(
      [2, 3, 4, 5].flatMap((page) => [0, 1, 2, 3].map((i) => page * 100 + i)),
    );
    expect(asked).toEqual([2, 3, 4, 5]);
  });

  it('a walk begun past page 1 on a server serving fewer than per_page loses nothing when its first page ends past total', async () => {
    // 50 items a page for per_page 100, total 120: page 2 holds items 51 to 100. Counted at 100 a page,
    // the items before it and its own would make 150, past total: the server serves fewer than asked.
    const asked = journalPapers((page) => ({
      data: Array.from({ length: Math.max(0, Math.min(50, 120 - (page - 1) * 50)) }, (_, i) =>
        paper((page - 1) * 50 + i + 1),
      ),
      total: 120,
    }));
    const walk = testClient().journals.papers(1, { page: 2, per_page: 100 }, { prefetch: 0 });
    const items = await collect(walk);
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: 70 }, (_, i) => 51 + i));
    expect(asked).toEqual([2, 3]);
    const alone = await testClient().journals.papers(1, { page: 2, per_page: 100 });
    expect(alone.toJSON().nextPage).toBe(3);
  });

  it('takes a short page fetched alone whose count makes total as the last, asking for nothing more', async () => {
    // Honest: 87 items at 20 a page, page 5 holds the last 7.
    const asked = journalPapers(honest(87));
    const items = await collect(testClient().journals.papers(1, { page: 5, per_page: 20 }, { prefetch: 0 }));
    expect(items).toHaveLength(7);
    expect(asked).toEqual([5]);
  });

  it('never asks for a page past the end, even if that page would not be empty', async () => {
    const asked = journalPapers((page) => ({ data: [paper(page), paper(page + 50)], total: 4 }));
    const items = await collect(testClient().journals.papers(1, { per_page: 2 }, { prefetch: 4 }));
    expect(items).toHaveLength(4);
    expect(asked.sort()).toEqual([1, 2]);
  });

  it('break stops every further request', async () => {
    const asked = journalPapers(honest(1_000), 10);
    let seen = 0;
    for await (const _ of testClient().journals.papers(1, { per_page: 10 }, { prefetch: 3 })) {
      if (++seen === 15) break;
    }
    await delay(100);
    const afterBreak = asked.length;
    await delay(100);
    expect(asked.length).toBe(afterBreak);
    // page 2 was being read; at most the prefetch window was in flight beyond it
    expect(Math.max(...asked)).toBeLessThanOrEqual(2 + 3);
  });

  it('has the next page on its way while the caller is busy with the current one', async () => {
    const asked = journalPapers(honest(30), 50);
    const walk = testClient().journals.papers(1, { per_page: 10 }).pages();
    const first = await walk.next();
    expect(first.value?.page).toBe(1);
    await vi.waitFor(() => expect(asked).toEqual([1, 2]), { timeout: 10_000, interval: 5 });
    await walk.return(undefined);
  });

  it('with prefetch, fetches ahead concurrently and still yields in order', async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.get(`${BASE}/journals/1/papers`, async ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        most = Math.max(most, ++inFlight);
        await delay(30);
        inFlight--;
        return json(honest(100)(page, 10));
      }),
    );
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }, { prefetch: 8 }));
    expect(items.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(most).toBeGreaterThanOrEqual(4);
    expect(most).toBeLessThanOrEqual(8);
  });

  /**
   * 100 papers, 10 a page, each answered after 20 ms; page `limitedPage` answered 429 (Retry-After 0)
   * once. The most requests in flight before that 429 and after it.
   */
  function rateLimitedOnce(limitedPage: number) {
    const seen = { inFlight: 0, mostBefore: 0, mostAfter: 0, limited: false };
    server.use(
      http.get(`${BASE}/journals/1/papers`, async ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        seen.inFlight++;
        if (seen.limited) seen.mostAfter = Math.max(seen.mostAfter, seen.inFlight);
        else seen.mostBefore = Math.max(seen.mostBefore, seen.inFlight);
        await delay(20);
        seen.inFlight--;
        if (page === limitedPage && !seen.limited) {
          seen.limited = true;
          return json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '0' } });
        }
        return json(honest(100)(page, 10));
      }),
    );
    return seen;
  }

  it('after a rate-limited (429) page, the walk drops to one page ahead', async () => {
    const seen = rateLimitedOnce(3);
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }, { prefetch: 4 }));
    expect(items.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(seen.mostBefore).toBeGreaterThanOrEqual(3);
    expect(seen.mostAfter).toBeLessThanOrEqual(2);
  });

  it('a rate-limited (429) first page: the walk looks one page ahead from the start', async () => {
    const seen = rateLimitedOnce(1);
    const items = await collect(testClient().journals.papers(1, { per_page: 10 }, { prefetch: 4 }));
    expect(items).toHaveLength(100);
    expect(seen.limited).toBe(true);
    // The page being read and one ahead: never the four of the prefetch asked for.
    expect(Math.max(seen.mostBefore, seen.mostAfter)).toBeLessThanOrEqual(2);
  });

  it('a failing page mid-walk rejects the walk, in order', async () => {
    server.use(
      http.get(`${BASE}/journals/1/papers`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return page === 2 ? json({ message: 'gone' }, { status: 404 }) : json(honest(30)(page, 10));
      }),
    );
    const received: number[] = [];
    const walk = async () => {
      for await (const item of testClient().journals.papers(1, { per_page: 10 }, { prefetch: 3 }))
        received.push(item.id);
    };
    await expect(walk()).rejects.toBeInstanceOf(NotFoundError);
    expect(received).toHaveLength(10);
  });

  it('refuses a prefetch out of bounds', async () => {
    journalPapers(honest(5));
    await expect(collect(testClient().journals.papers(1, {}, { prefetch: 9 }))).rejects.toThrow(/prefetch/);
    await expect(testClient().journals.papers(1, {}, { prefetch: -1 })).rejects.toThrow(/prefetch/);
  });

  it.each([1, 8])(
    'an abort ends the walk at its next page, pages answered ahead included (prefetch %i)',
    async (prefetch) => {
      const asked = journalPapers(honest(100));
      const caller = new AbortController();
      const walk = testClient().journals.papers(1, { per_page: 10 }, { signal: caller.signal, prefetch });
      const pages: number[] = [];
      const ended = (async () => {
        for await (const page of walk.pages()) {
          pages.push(page.page);
          if (pages.length > 1) continue;
          // The pages asked for ahead are answered before the abort: the walk holds them unread.
          await vi.waitFor(() => expect(asked).toHaveLength(1 + prefetch));
          await new Promise((resolve) => setTimeout(resolve, 50));
          caller.abort(new Error('enough'));
        }
      })();
      const error = await ended.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect(pages).toEqual([1]);
    },
  );

  it('refuses a signal that is none as awaiting the call does, with a ConfigurationError', async () => {
    journalPapers(honest(5));
    const options = { signal: 'not a signal' } as never;
    const walks = [
      () => testClient().journals.papers(1, {}, options),
      () => testClient().journals.papers(1, {}, options).toArray({ limit: 10 }),
      () => collect(testClient().journals.papers(1, {}, options)),
      () => collect(testClient().journals.papers(1, {}, options).pages()),
    ];
    for (const walk of walks) await expect(walk()).rejects.toBeInstanceOf(ConfigurationError);
  });

  it("a walk refused for its prefetch leaves no listener on the caller's signal", async () => {
    journalPapers(honest(5));
    const caller = new AbortController();
    const walk = testClient().journals.papers(1, {}, { signal: caller.signal, prefetch: 99 });
    await expect(walk.toArray({ limit: 5 })).rejects.toBeInstanceOf(ConfigurationError);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
