import { delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { MetricClient, MetricError } from '../../src/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { BASE, gate, json, OTHER_TEST_KEY, TEST_KEY, testClient, useMsw } from '../support.js';
import { at, countries, serveOn, subjects, tick } from './quota-setup.js';

const server = useMsw();
const serve = serveOn(server);

describe('maxConcurrency', () => {
  it('never has more requests in flight than the limit, and every one completes', async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.get(`${BASE}/subjects`, async () => {
        most = Math.max(most, ++inFlight);
        await delay(15);
        inFlight--;
        return json(subjects);
      }),
    );
    const sdk = testClient({ maxConcurrency: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => sdk.subjects.list()));
    expect(results).toEqual(Array.from({ length: 10 }, () => subjects));
    expect(most).toBe(3);
  });
});

describe('maxRequestsPerMinute', () => {
  it('the (n+1)-th request starts 60 s after the first', async () => {
    useFakeClock();
    const log = serve({ '/subjects': () => json(subjects) });
    const sdk = testClient({ maxRequestsPerMinute: 3 });
    const calls = Promise.all(Array.from({ length: 4 }, () => sdk.subjects.list()));
    await at(59_999);
    expect(log.map((entry) => entry.at)).toEqual([0, 0, 0]);
    await at(60_000);
    expect(log.map((entry) => entry.at)).toEqual([0, 0, 0, 60_000]);
    expect(await calls).toHaveLength(4);
  });

  it('is a sliding window: no more than n start in any 60 s', async () => {
    useFakeClock();
    const log = serve({ '/subjects': () => json(subjects) });
    const sdk = testClient({ maxRequestsPerMinute: 3 });
    const calls = [sdk.subjects.list()];
    await at(30_000);
    calls.push(sdk.subjects.list(), sdk.subjects.list());
    await at(60_000);
    // Only the request of t = 0 has left the window: one more may start now, two at t = 90 s.
    calls.push(sdk.subjects.list(), sdk.subjects.list(), sdk.subjects.list());
    await at(120_000);
    await Promise.all(calls);
    const starts = log.map((entry) => entry.at);
    expect(starts).toEqual([0, 30_000, 30_000, 60_000, 90_000, 90_000]);
    for (const from of starts) {
      expect(starts.filter((t) => t >= from && t < from + 60_000).length).toBeLessThanOrEqual(3);
    }
  });
});

describe("pacing: 'even' on the client's own maxRequestsPerMinute", () => {
  it('spaces the requests 60 s ÷ the limit apart instead of sending the minute’s budget at once', async () => {
    useFakeClock();
    const log = serve({ '/subjects': () => json(subjects) });
    const sdk = testClient({ maxRequestsPerMinute: 3, pacing: 'even' });
    const calls = Promise.all(Array.from({ length: 4 }, () => sdk.subjects.list()));
    await at(60_000);
    expect(log.map((entry) => entry.at)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(await calls).toHaveLength(4);
  });

  it("a withOptions child's own pacing is its own, not the parent's dropped in silence", async () => {
    useFakeClock();
    const log = serve({ '/subjects': () => json(subjects) });
    const parent = testClient({ maxRequestsPerMinute: 3 });
    const child = parent.withOptions({ pacing: 'even' });
    const calls = Promise.all(Array.from({ length: 3 }, () => child.subjects.list()));
    await at(40_000);
    expect(log.map((entry) => entry.at)).toEqual([0, 20_000, 40_000]);
    expect(await calls).toHaveLength(3);
  });

  it('refuses a pacing other than burst or even, and pacing beside a shared quota', () => {
    expect(() => testClient({ pacing: 'smooth' as never })).toThrow(/`pacing` must be 'burst' or 'even'/);
    const quota = { forClient: () => ({ run: (send: () => unknown) => send(), pause() {}, block() {} }) };
    expect(
      () => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, quota, pacing: 'even' } as never),
    ).toThrow(/Set `pacing` on `quota`/);
  });
});
describe('withOptions and the limits', () => {
  it('a child on the same key shares maxConcurrency; a child with another key does not', async () => {
    const held = gate();
    const log = serve({
      '/subjects': async () => {
        await held.promise;
        return json(subjects);
      },
      '/countries': () => json(countries),
      '/journals': () => json([]),
    });
    const parent = testClient({ maxConcurrency: 1 });
    const first = parent.subjects.list();
    while (log.length === 0) await tick();
    const sameKey = parent.withOptions({ timeout: 5_000 }).countries.list();
    const otherKey = parent.withOptions({ apiKey: OTHER_TEST_KEY }).journals.list();
    await otherKey;
    expect(log.map((entry) => entry.path)).toEqual(['/subjects', '/journals']);
    held.open();
    await Promise.all([first, sameKey]);
    expect(log.map((entry) => entry.path)).toEqual(['/subjects', '/journals', '/countries']);
  });
});

describe('no deadlock under maxConcurrency: 1', () => {
  const paper = (id: number) => ({
    id,
    title: `P${id}`,
    authors: 'A',
    doi: `10.1/p${id}`,
    year: 1,
    citations: 1,
  });
  /** 95 items, 10 a page, at `path`. */
  const pages = (path: string) =>
    http.get(`${BASE}${path}`, async ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      await delay(1);
      const ids = Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i + 1).filter((id) => id <= 95);
      return json({ data: ids.map(paper), total: 95 });
    });
  const all = Array.from({ length: 95 }, (_, i) => i + 1);
  const walk = async (items: AsyncIterable<{ id?: number | undefined }>) => {
    const ids: unknown[] = [];
    for await (const item of items) ids.push(item.id);
    return ids;
  };

  it('a walk with prefetch 8 yields every item in order', async () => {
    server.use(pages('/journals/1/papers'));
    const sdk = testClient({ maxConcurrency: 1 });
    expect(await walk(sdk.journals.papers(1, { per_page: 10 }, { prefetch: 8 }))).toEqual(all);
  });

  it('two walks and a batch of lookups all finish', async () => {
    server.use(
      pages('/journals/1/papers'),
      pages('/papers'),
      http.get(`${BASE}/papers/:doi`, ({ params }) =>
        json({ ...paper(1), abstract: 'A.', doi: String(params.doi) }),
      ),
    );
    const sdk = testClient({ maxConcurrency: 1 });
    const dois = Array.from({ length: 12 }, (_, i) => `10.1000/d${i}`);
    const lookups = sdk.papers.getMany(dois, { concurrency: 4 }).then((all) => all.map((r) => r.paper?.doi));
    const [first, second, looked] = await Promise.all([
      walk(sdk.journals.papers(1, { per_page: 10 }, { prefetch: 8 })),
      walk(sdk.papers.search({ q: 'x', per_page: 10 }, { prefetch: 8 })),
      lookups,
    ]);
    expect(first).toEqual(all);
    expect(second).toEqual(all);
    expect(looked).toEqual(dois);
  });
});

describe('invalid limits', () => {
  const values: unknown[] = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '4'];
  it.each(['maxConcurrency', 'maxRequestsPerMinute'])(
    '%s: 0, -1, 1.5, NaN, Infinity, "4" → MetricError',
    (name) => {
      for (const value of values) {
        expect(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, [name]: value })).toThrow(
          MetricError,
        );
      }
    },
  );
});
