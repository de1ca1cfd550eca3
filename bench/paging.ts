// §7, paging: a plain loop against the SDK's iterator at each `prefetch`; what `toArray({ limit })` saves.
import { isDeepStrictEqual } from 'node:util';
import { atLeast, count, speedTable, table, x } from './format.js';
import { loadTesting, medians, raceRuns, scaled, sdk, sleep, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '7', key: 'paging', file: 'paging.ts', title: 'Paging' };

const config = { pages: 100, perPage: 20, latencyMs: 20, prefetches: [0, 1, 2, 4, 8] };
const toArrays = { papers: 3000, perPage: 100, latencyMs: 20, limits: [1, 150, 1000], prefetches: [1, 8] };
const target = 3.5;
const loopName = 'sequential loop (fetch + JSON.parse)';
const walkName = (prefetch: number) => `scholarly-metrics for await, prefetch ${prefetch}`;

async function walks() {
  const { pages, perPage, latencyMs, prefetches } = config;
  const { MOCK_API_KEY } = await loadTesting();
  // One journal holding every paper: its paper list is exactly `pages` pages long.
  const options = { sizes: { journals: 1, papers: pages * perPage }, faults: { latencyMs } };
  return withServer({ kind: 'mock', options }, async ({ url }) => {
    const headers = { authorization: `Bearer ${MOCK_API_KEY}` };
    const client = await sdk(url);
    let requests = 0;
    /** What people write without an iterator: one page, then the next, until `total` is reached. */
    const loop = async () => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const pageUrl = `${url}/journals/1/papers?page=${page}&per_page=${perPage}`;
        const body = JSON.parse(await (await fetch(pageUrl, { headers })).text());
        for (const paper of body.data as Array<{ id: number }>) ids.push(paper.id);
        requests = page;
        if (body.data.length === 0 || ids.length >= body.total) return ids;
      }
    };
    const walk = (prefetch: number) => async () => {
      const ids: number[] = [];
      for await (const paper of client.journals.papers(1, { per_page: perPage }, { prefetch }))
        ids.push(paper.id);
      return ids;
    };
    const served = (await loop()).length;
    if (served !== pages * perPage || requests !== pages)
      throw new Error(`the mock served ${served} papers in ${requests} pages`);
    const runs = Object.fromEntries([[loopName, loop], ...prefetches.map((p) => [walkName(p), walk(p)])]);
    const { same, speedups, ...rest } = await raceRuns(runs, scaled(5, 1));
    return { ...rest, speedups: speedups.map((s, n) => ({ ...s, prefetch: prefetches[n]! })), ordered: same };
  });
}

type Count = { started: number; received: number };
const medianCounts = (list: Count[]) => medians(list, ['started', 'received']);

/** toArray against the naive walk, at each limit and prefetch: medians of what each started and received. */
async function toArrayRequests() {
  const { papers, perPage, latencyMs, limits, prefetches } = toArrays;
  const [options, rounds] = [{ sizes: { papers }, faults: { latencyMs } }, scaled(3, 1)];
  return withServer({ kind: 'mock', options }, async (server) => {
    let started = 0;
    const counting: typeof fetch = (input, init) => {
      started++;
      return fetch(input, init);
    };
    const client = await sdk(server.url, { fetch: counting });
    const total = (await client.papers.search({ per_page: perPage })).total;
    if (total < papers) throw new Error(`the mock has ${total} papers, fewer than ${papers}`);
    /** Requests started and received while `walk` ran, once the last of them had time to arrive. */
    const counted = async <T>(walk: () => Promise<T[]>) => {
      const before = { started, received: await server.received() };
      const items = await walk();
      await sleep(latencyMs * 2);
      const received = (await server.received()) - before.received;
      return { items, started: started - before.started, received };
    };
    const rows = [];
    for (const [limit, prefetch] of limits.flatMap((l) => prefetches.map((p) => [l, p] as const))) {
      const search = () => client.papers.search({ per_page: perPage }, { prefetch });
      const naive = async () => {
        const items = [];
        for await (const paper of search()) if (items.push(paper) === limit) break;
        return items;
      };
      const [needed, naiveCounts, toArrayCounts] = [Math.ceil(limit / perPage), [] as Count[], [] as Count[]];
      let exact = true;
      for (let round = 0; round < rounds; round++) {
        const [a, b] = [await counted(naive), await counted(() => search().toArray({ limit }))];
        naiveCounts.push(a);
        toArrayCounts.push(b);
        exact &&= b.started === needed && b.items.length === limit && isDeepStrictEqual(b.items, a.items);
      }
      const counts = { naive: medianCounts(naiveCounts), toArray: medianCounts(toArrayCounts) };
      rows.push({ limit, prefetch, needed, ...counts, exact });
    }
    return { rounds, rows };
  });
}

export const measure = async () => ({ ...(await walks()), toArray: await toArrayRequests() });

export function report(paging: Results['paging']): Report {
  const [{ pages, perPage, latencyMs }, c] = [config, toArrays];
  const best = [...paging.speedups].sort((a, b) => b.speedup - a.speedup)[0]!;
  const exact = paging.toArray.rows.every((r) => r.exact);
  const naive = paging.toArray.rows.reduce((sum, r) => sum + r.naive.started, 0);
  const saved = naive - paging.toArray.rows.reduce((sum, r) => sum + r.toArray.started, 0);
  const walk = `${pages} pages at ${latencyMs} ms: sequential loop ÷ SDK iterator at its best prefetch`;
  const figure = `${x(best.speedup, 1)} (prefetch ${best.prefetch}), order ${paging.ordered ? 'preserved' : '**not preserved**'}`;
  const toArray = '`toArray({ limit })`: no page requested past the one holding the limit-th item';
  const exactly = `${exact ? 'exact in every case' : '**not exact**'}; ${saved} of ${naive} requests of a naive \`for await\` + \`break\` saved`;
  const rows = [
    atLeast(walk, figure, best.speedup, target, x(target, 1), paging.ordered),
    { what: toArray, figure: exactly, target: 'exact', met: exact },
  ];
  const toArrayRows = paging.toArray.rows.map((r) => [
    ...[count(r.limit), String(r.prefetch), String(r.needed), `${r.naive.started} / ${r.naive.received}`],
    ...[`${r.toArray.started} / ${r.toArray.received}`, String(r.naive.started - r.toArray.started)],
    r.exact ? 'yes' : '**no**',
  ]);
  const text = `${pages} pages of ${perPage} papers (one journal of ${count(pages * perPage)} in the mock), each answer held back ${latencyMs} ms: a \`fetch\` loop,
page after page until \`total\`, against \`for await (const paper of client.journals.papers(1, { per_page: ${perPage} }, { prefetch }))\`;
${paging.rounds} rounds, round-robin, each walk compared item by item with the loop's: order ${paging.ordered ? 'preserved in every walk' : '**not preserved**'}.

${speedTable(paging, ['contender', `time for ${pages} pages`, 'loop ÷ contender (paired)'])}

\`prefetch\` is how many pages may be in flight while the walk yields (default 1, at most 8).

### toArray: requests saved

\`client.papers.search({ per_page: ${c.perPage} }, { prefetch }).toArray({ limit })\` against a naive \`for await\` that breaks at the
\`limit\`-th item, over ${count(c.papers)} papers at ${c.latencyMs} ms. *started*: requests the client began; *received*: those the server
got (a prefetched request aborted by the \`break\` before it is written never arrives). Medians of ${paging.toArray.rounds} rounds; toArray must
start exactly the pages up to the one holding the limit-th item, and return the naive loop's items.

${table(['limit', 'prefetch', 'pages needed', 'naive: started / received', 'toArray: started / received', 'started requests saved', 'exact'], toArrayRows)}`;
  return { rows, text };
}
