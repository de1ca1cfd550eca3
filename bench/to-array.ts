/**
 * 7b. What `toArray({ limit })` saves: `client.papers.search(...).toArray({ limit })` against a naive
 * `for await` that breaks at the `limit`-th item, at `prefetch` 1 and 8, counting the requests the
 * client started (its `fetch` called) and the requests the server received (a request aborted before
 * it was written never arrives). toArray must request no page past the one holding the limit-th item.
 */
import { deepStrictEqual } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { toArrayConfig } from './config.js';
import { loadSdk, loadTesting, median, startServer } from './lib.js';

const { papers, perPage, latencyMs, limits, prefetches } = toArrayConfig;

export interface ToArrayRow {
  limit: number;
  prefetch: number;
  /** Pages up to the one holding the limit-th item: the fewest that can do. */
  needed: number;
  /** Medians over the rounds. */
  naive: { started: number; received: number };
  toArray: { started: number; received: number };
  /** Whether toArray started exactly `needed` requests in every round and returned the naive loop's items. */
  exact: boolean;
}

type Count = { started: number; received: number };

export async function toArrayRequests(rounds = 3): Promise<ToArrayRow[]> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock', options: { sizes: { papers }, faults: { latencyMs } } });
  try {
    let started = 0;
    const counting: typeof fetch = (input, init) => {
      started++;
      return fetch(input, init);
    };
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, fetch: counting });
    const total = (await client.papers.search({ per_page: perPage })).total;
    if (total < papers) throw new Error(`the mock has ${total} papers, fewer than ${papers}`);
    /** Requests started and received while `walk` ran, once the last of them had time to arrive. */
    const count = async <T>(walk: () => Promise<T>) => {
      const before = { started, received: await server.received() };
      const items = await walk();
      await sleep(latencyMs * 2);
      return {
        items,
        started: started - before.started,
        received: (await server.received()) - before.received,
      };
    };
    const rows: ToArrayRow[] = [];
    for (const limit of limits) {
      for (const prefetch of prefetches) {
        const search = () => client.papers.search({ per_page: perPage }, { prefetch });
        const naive = async () => {
          const items = [];
          for await (const paper of search()) {
            items.push(paper);
            if (items.length === limit) break;
          }
          return items;
        };
        const needed = Math.ceil(limit / perPage);
        const samples: Record<'naive' | 'toArray', Count[]> = { naive: [], toArray: [] };
        let exact = true;
        for (let round = 0; round < rounds; round++) {
          const a = await count(naive);
          const b = await count(() => search().toArray({ limit }));
          samples.naive.push(a);
          samples.toArray.push(b);
          try {
            deepStrictEqual(b.items, a.items);
          } catch {
            exact = false;
          }
          if (b.started !== needed || b.items.length !== limit) exact = false;
        }
        const med = (list: Count[]) => ({
          started: median(list.map((s) => s.started)),
          received: median(list.map((s) => s.received)),
        });
        rows.push({
          limit,
          prefetch,
          needed,
          naive: med(samples.naive),
          toArray: med(samples.toArray),
          exact,
        });
      }
    }
    return rows;
  } finally {
    await server.close();
  }
}
