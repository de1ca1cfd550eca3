// §7, what `toArray({ limit })` saves against a naive `for await` + `break`: requests the client
// started and the server received; toArray must request no page past the one holding the limit-th item.
import { deepStrictEqual } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { median, scaled, sdk, withServer } from './lib.js';

export const toArrayConfig = {
  papers: 3000,
  perPage: 100,
  latencyMs: 20,
  limits: [1, 150, 1000],
  prefetches: [1, 8],
  rounds: scaled(3, 1),
};

type Count = { started: number; received: number };
const medians = (list: Count[]) => ({
  started: median(list.map((s) => s.started)),
  received: median(list.map((s) => s.received)),
});

export async function toArrayRequests() {
  const { papers, perPage, latencyMs, limits, prefetches, rounds } = toArrayConfig;
  return withServer(
    { kind: 'mock', options: { sizes: { papers }, faults: { latencyMs } } },
    async (server) => {
      let started = 0;
      const counting: typeof fetch = (input, init) => {
        started++;
        return fetch(input, init);
      };
      const client = await sdk(server.url, { fetch: counting });
      const total = (await client.papers.search({ per_page: perPage })).total;
      if (total < papers) throw new Error(`the mock has ${total} papers, fewer than ${papers}`);
      /** Requests started and received while `walk` ran, once the last of them had time to arrive. */
      const counted = async <T>(walk: () => Promise<T>) => {
        const before = { started, received: await server.received() };
        const items = await walk();
        await sleep(latencyMs * 2);
        return {
          items,
          started: started - before.started,
          received: (await server.received()) - before.received,
        };
      };
      const rows = [];
      for (const limit of limits) {
        for (const prefetch of prefetches) {
          const search = () => client.papers.search({ per_page: perPage }, { prefetch });
          const naive = async () => {
            const items = [];
            for await (const paper of search()) if (items.push(paper) === limit) break;
            return items;
          };
          const needed = Math.ceil(limit / perPage);
          const samples = { naive: [] as Count[], toArray: [] as Count[] };
          let exact = true;
          for (let round = 0; round < rounds; round++) {
            const a = await counted(naive);
            const b = await counted(() => search().toArray({ limit }));
            samples.naive.push(a);
            samples.toArray.push(b);
            try {
              deepStrictEqual(b.items, a.items);
            } catch {
              exact = false;
            }
            if (b.started !== needed || b.items.length !== limit) exact = false;
          }
          rows.push({
            limit,
            prefetch,
            needed,
            naive: medians(samples.naive),
            toArray: medians(samples.toArray),
            exact,
          });
        }
      }
      return rows;
    },
  );
}
