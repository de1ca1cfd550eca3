/**
 * 7. Paging: 100 pages of 20 journal papers from the mock API, each answer held back 20 ms by the
 * server. A plain loop that asks for one page after the other, against the SDK's iterator at each
 * `prefetch` setting. Every walk must yield the 2,000 papers in the loop's order.
 *
 * Then `toArray({ limit })` against `for await` with a `break` at the limit (bench/to-array.ts).
 */
import { deepStrictEqual } from 'node:assert';
import { loopName, paging, walkName } from './config.js';
import { loadSdk, loadTesting, median, report, startServer } from './lib.js';
import { type ToArrayRow, toArrayRequests } from './to-array.js';

const { pages, perPage, latencyMs, prefetches } = paging;

export interface PagingResult {
  rounds: number;
  /** Median milliseconds per walk, by contender. */
  contenders: Array<{ name: string; prefetch?: number; ms: number }>;
  /** Median of the per-round ratio: loop time over this contender's time (higher is faster). */
  speedups: Array<{ name: string; prefetch: number; speedup: number }>;
  ordered: boolean;
  /** What `toArray` saves against `for await` + `break` (bench/to-array.ts). */
  toArray: ToArrayRow[];
}

async function walks(): Promise<Omit<PagingResult, 'toArray'>> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  // One journal holding every paper: its paper list is exactly `pages` pages long.
  const server = await startServer({
    kind: 'mock',
    options: { sizes: { journals: 1, papers: pages * perPage }, faults: { latencyMs } },
  });
  try {
    const { url } = server;
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: url });

    /** What people write without an iterator: one page, then the next, until `total` is reached. */
    const loop = async () => {
      const ids: number[] = [];
      let requests = 0;
      for (let page = 1; ; page++) {
        const response = await fetch(`${url}/journals/1/papers?page=${page}&per_page=${perPage}`, {
          headers,
        });
        requests++;
        const body = JSON.parse(await response.text()) as { data: Array<{ id: number }>; total: number };
        for (const paper of body.data) ids.push(paper.id);
        if (body.data.length === 0 || ids.length >= body.total) return { ids, requests };
      }
    };
    const walk = (prefetch: number) => async () => {
      const ids: number[] = [];
      for await (const paper of client.journals.papers(1, { per_page: perPage }, { prefetch }))
        ids.push(paper.id);
      return { ids };
    };
    const contenders = [
      { name: loopName, prefetch: undefined, run: loop },
      ...prefetches.map((prefetch) => ({ name: walkName(prefetch), prefetch, run: walk(prefetch) })),
    ];

    const expected = await loop();
    if (expected.ids.length !== pages * perPage || expected.requests !== pages) {
      throw new Error(`the mock served ${expected.ids.length} papers in ${expected.requests} pages`);
    }
    let ordered = true;
    const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    const rounds = 5;
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < contenders.length; k++) {
        const contender = contenders[(k + round) % contenders.length]!;
        const started = performance.now();
        const { ids } = await contender.run();
        times.get(contender.name)!.push(performance.now() - started);
        try {
          deepStrictEqual(ids, expected.ids);
        } catch {
          ordered = false;
        }
      }
    }
    const loopTimes = times.get(loopName)!;
    return {
      rounds,
      contenders: contenders.map(({ name, prefetch }) => ({
        name,
        ...(prefetch === undefined ? {} : { prefetch }),
        ms: median(times.get(name)!),
      })),
      speedups: prefetches.map((prefetch) => ({
        name: walkName(prefetch),
        prefetch,
        speedup: median(times.get(walkName(prefetch))!.map((ms, round) => loopTimes[round]! / ms)),
      })),
      ordered,
    };
  } finally {
    await server.close();
  }
}

await report(async (): Promise<PagingResult> => ({ ...(await walks()), toArray: await toArrayRequests() }));
