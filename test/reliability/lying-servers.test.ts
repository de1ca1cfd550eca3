/**
 * Servers that lie about pagination, over a real HTTP server: what every walk yields, and how many
 * requests it made. The walk rules under test (src/core/pagination.ts): a walk ends when the items
 * seen reach the smallest `total` any page reported, or when a page comes back empty; it yields
 * every item of every page it fetched, in page order, and never asks for a page its own count says
 * is past the end. Each case runs with `prefetch` 0, 1 (the default) and 8.
 *
 * One rule these tests ask for beyond those: a page identical to the page before it (a server that
 * ignores `page`) ends the walk, and is not yielded. Without it, such a walk runs to `total`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { testClient } from '../support.js';
import { type Handler, json } from './fault-server.js';
import { reportFigures, useFaultServers } from './harness.js';

const servers = useFaultServers();

const paper = (id: number) => ({ id, title: `Paper ${id}`, authors: 'A. Author', year: 2020, citations: id });
const papers = (from: number, count: number) => Array.from({ length: count }, (_, i) => paper(from + i));

type PageAnswer = (
  page: number,
  perPage: number | undefined,
) => { data: Array<{ id: number }>; total: number };

/** Serves `GET /journals/1/papers?page=…&per_page=…` from `answer`, recording the pages asked for. */
function pagedScenario(answer: PageAnswer) {
  const asked: number[] = [];
  const handler: Handler = (req, res, attempt) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = url.searchParams.has('per_page') ? Number(url.searchParams.get('per_page')) : undefined;
    asked.push(page);
    json(answer(page, perPage))(req, res, attempt);
  };
  const scenario = servers.scenario(handler);
  return { scenario, asked };
}

async function walk(answer: PageAnswer, perPage: number | undefined, prefetch: number, limit = 10_000) {
  const { scenario, asked } = pagedScenario(answer);
  const client = testClient({ maxRetries: 0 }, scenario);
  const ids: number[] = [];
  const started = performance.now();
  for await (const item of client.journals.papers(1, { per_page: perPage }, { prefetch })) {
    ids.push(item.id);
    // A guard so that a walk that does not end fails the test instead of running forever.
    if (ids.length >= limit) break;
  }
  return {
    ids,
    requests: scenario.attempts,
    asked: [...asked].sort((a, b) => a - b),
    ms: performance.now() - started,
  };
}

const figures: Array<Record<string, unknown>> = [];
reportFigures('lying-servers', () => figures);

const prefetches = [0, 1, 8];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.concurrent('lying servers: every walk ends, and yields exactly this', () => {
  for (const prefetch of prefetches) {
    it(`total that grows every page (20 + 10·page): the first total bounds the walk [prefetch ${prefetch}]`, async () => {
      const result = await walk(
        (page, perPage = 10) => ({
          data: papers((page - 1) * perPage + 1, perPage),
          total: 20 + page * 10,
        }),
        10,
        prefetch,
      );
      expect(result.ids).toEqual(range(1, 30));
      expect(result.asked).toEqual([1, 2, 3]);
      if (prefetch === 1)
        figures.push({
          server: 'total grows every page',
          yields: '30 items (the first total)',
          requests: result.requests,
        });
    });

    it(`total 0 with data: the first page only [prefetch ${prefetch}]`, async () => {
      const result = await walk(() => ({ data: papers(1, 3), total: 0 }), undefined, prefetch);
      expect(result.ids).toEqual([1, 2, 3]);
      expect(result.asked).toEqual([1]);
      if (prefetch === 1)
        figures.push({ server: 'total 0 with data', yields: 'the first page', requests: result.requests });
    });

    it(`the same page again and again (a server that ignores \`page\`, total 10^9): the walk ends at the repeat [prefetch ${prefetch}]`, async () => {
      // A proxy that caches by path and drops the query, or a server that ignores `page`, answers
      // page 1 forever, with the real total. Counting items up to `total` does not end that walk:
      // 10^9 items is 5·10^8 requests. A page identical to the one before it must end it, unyielded.
      const result = await walk(() => ({ data: papers(1, 2), total: 1_000_000_000 }), 2, prefetch, 200);
      if (prefetch === 1)
        figures.push({
          server: 'same page again and again (total 10^9)',
          yields: `${result.ids.length} items${result.ids.length >= 200 ? ' (stopped by the test’s guard)' : ''}`,
          requests: result.requests,
        });
      expect(result.ids).toEqual([1, 2]);
      expect(result.requests).toBeLessThanOrEqual(2 + prefetch);
    });

    it(`page sizes that change (5, 2, 7, 1, 5 for per_page 5, total 20): a page shorter than the first is the last [prefetch ${prefetch}]`, async () => {
      const sizes = [5, 2, 7, 1, 5];
      const starts = [1, 6, 8, 15, 16];
      const result = await walk(
        (page) => ({
          data: papers(starts[page - 1] ?? 100, sizes[page - 1] ?? 0),
          total: 20,
        }),
        5,
        prefetch,
      );
      expect(result.ids).toEqual(range(1, 7));
      // Pages already requested ahead when page 2 came back short are aborted, never yielded.
      expect([...result.asked].sort().slice(0, 2)).toEqual([1, 2]);
      if (prefetch === 0) expect(result.asked).toEqual([1, 2]);
      if (prefetch === 1)
        figures.push({
          server: 'page sizes change',
          yields: 'the items up to the first short page',
          requests: result.requests,
        });
    });

    it(`pages larger than per_page (8 items for per_page 5, total 10): the last page is not cut [prefetch ${prefetch}]`, async () => {
      const result = await walk((page) => ({ data: papers((page - 1) * 8 + 1, 8), total: 10 }), 5, prefetch);
      expect(result.ids).toEqual(range(1, 16));
      expect(result.asked).toEqual([1, 2]);
      if (prefetch === 1)
        figures.push({
          server: 'pages larger than per_page',
          yields: 'whole pages (16 items for total 10)',
          requests: result.requests,
        });
    });

    it(`a page past the end that is not empty: never asked for [prefetch ${prefetch}]`, async () => {
      const result = await walk((page) => ({ data: papers(page * 100, 2), total: 4 }), 2, prefetch);
      expect(result.ids).toEqual([100, 101, 200, 201]);
      expect(result.asked).toEqual([1, 2]);
      if (prefetch === 1)
        figures.push({
          server: 'non-empty page past the end',
          yields: 'total items; that page is never requested',
          requests: result.requests,
        });
    });

    it(`a total that shrinks (100, then 5): the smallest total bounds the walk [prefetch ${prefetch}]`, async () => {
      const result = await walk(
        (page) => ({ data: papers(page * 10, 2), total: page === 1 ? 100 : 5 }),
        2,
        prefetch,
      );
      expect(result.ids).toEqual([10, 11, 20, 21, 30, 31]);
      // With prefetch, pages the first total allowed were already asked for; none is yielded.
      expect(result.asked.slice(0, 3)).toEqual([1, 2, 3]);
      expect(result.requests).toBeLessThanOrEqual(3 + prefetch);
      if (prefetch === 1)
        figures.push({
          server: 'total shrinks',
          yields: 'up to the smallest total',
          requests: result.requests,
        });
    });

    it(`an empty page while total says more: the walk ends there [prefetch ${prefetch}]`, async () => {
      const result = await walk(
        (page) => ({ data: page <= 2 ? papers(page * 10, 3) : [], total: 1_000 }),
        3,
        prefetch,
      );
      expect(result.ids).toEqual([10, 11, 12, 20, 21, 22]);
      expect(result.asked.slice(0, 3)).toEqual([1, 2, 3]);
      // Pages asked for ahead of the empty one are abandoned, not yielded.
      expect(result.requests).toBeLessThanOrEqual(3 + prefetch);
      if (prefetch === 1)
        figures.push({
          server: 'empty page, total 1000',
          yields: 'up to the empty page',
          requests: result.requests,
        });
    });
  }

  it('getNextPage by hand over a total that grows: hasNextPage turns false at the first total', async () => {
    const { scenario, asked } = pagedScenario((page, perPage = 10) => ({
      data: papers((page - 1) * perPage + 1, perPage),
      total: 20 + page * 10,
    }));
    let page = await testClient({}, scenario).journals.papers(1, { per_page: 10 });
    const ids = page.data.map((p) => p.id);
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      ids.push(...page.data.map((p) => p.id));
    }
    expect(ids).toEqual(range(1, 30));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('a negative total is refused: ResponseValidationError, not a walk', async () => {
    const { scenario } = pagedScenario(() => ({ data: papers(1, 2), total: -1 }));
    const walked = async () => {
      for await (const _ of testClient({}, scenario).journals.papers(1)) {
        // nothing
      }
    };
    await expect(walked()).rejects.toBeInstanceOf(ResponseValidationError);
    expect(scenario.attempts).toBe(1);
  });
});

describe('any lying server', () => {
  it('whatever each page says (sizes 0–6, totals 0–40), the walk ends, in order, within total + 1 + prefetch requests', async () => {
    const script = fc.array(fc.record({ size: fc.nat(6), total: fc.nat(40) }), {
      minLength: 1,
      maxLength: 50,
    });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        script,
        fc.constantFrom(0, 1, 3, 8),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        async (pages, prefetch, perPage) => {
          runs++;
          // Page n's items have ids n·100 + i, so the order of pages shows in the ids.
          const answer: PageAnswer = (page) => {
            const step = pages[Math.min(page - 1, pages.length - 1)]!;
            return { data: papers(page * 100, step.size), total: step.total };
          };
          const result = await walk(answer, perPage, prefetch, 5_000);

          // The walk the rules describe, page by page, from the same script.
          const expected: number[] = [];
          let bound = Number.POSITIVE_INFINITY;
          let seen = 0;
          let first = 0;
          for (let page = 1; ; page++) {
            const { data, total } = answer(page, perPage);
            bound = Math.min(bound, total);
            seen += data.length;
            if (page === 1) first = data.length;
            expected.push(...data.map((item) => item.id));
            const short = page > 1 && data.length < first;
            if (data.length === 0 || seen >= bound || short || page * first >= bound) break;
          }
          expect(result.ids).toEqual(expected);
          const firstTotal = answer(1, perPage).total;
          expect(result.requests).toBeLessThanOrEqual(firstTotal + 1 + prefetch);
        },
      ),
      { numRuns: 150 },
    );
    expect(runs).toBe(150);
  });
});
