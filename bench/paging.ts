// §7, paging, each answer held back by the server: a plain loop asking for one page after the other
// against the SDK's iterator at each `prefetch`, every walk in the loop's order; then toArray (bench/to-array.ts).

import { count, find, ms, type Row, table, verdict, x } from './format.js';
import { loadTesting, median, pairedMedian, roundRobin, scaled, sdk, timed, withServer } from './lib.js';
import { toArrayConfig, toArrayRequests } from './to-array.js';

export const about = { id: '7', key: 'paging', file: 'paging.ts' } as const;

const config = { pages: 100, perPage: 20, latencyMs: 20, prefetches: [0, 1, 2, 4, 8] };
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
    /** What people write without an iterator: one page, then the next, until `total` is reached. */
    const loop = async () => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const pageUrl = `${url}/journals/1/papers?page=${page}&per_page=${perPage}`;
        const body = JSON.parse(await (await fetch(pageUrl, { headers })).text());
        for (const paper of body.data as Array<{ id: number }>) ids.push(paper.id);
        if (body.data.length === 0 || ids.length >= body.total) return { ids, requests: page };
      }
    };
    const walk = (prefetch: number) => async () => {
      const ids: number[] = [];
      for await (const paper of client.journals.papers(1, { per_page: perPage }, { prefetch }))
        ids.push(paper.id);
      return { ids };
    };
    const runs = new Map([[loopName, loop], ...prefetches.map((p) => [walkName(p), walk(p)] as const)]);
    const expected = await loop();
    if (expected.ids.length !== pages * perPage || expected.requests !== pages) {
      throw new Error(`the mock served ${expected.ids.length} papers in ${expected.requests} pages`);
    }
    let ordered = true;
    const rounds = scaled(5, 1);
    const times = await roundRobin([...runs.keys()], rounds, async (name) => {
      const { ms, value } = await timed(runs.get(name)!);
      if (JSON.stringify(value.ids) !== JSON.stringify(expected.ids)) ordered = false;
      return ms;
    });
    const loopTimes = times.get(loopName)!;
    return {
      rounds,
      contenders: [...times].map(([name, list], n) => ({
        name,
        ...(n > 0 && { prefetch: prefetches[n - 1]! }),
        ms: median(list),
      })),
      /** Loop time over the walk's, paired per round (higher is faster). */
      speedups: prefetches.map((prefetch) => ({
        name: walkName(prefetch),
        prefetch,
        speedup: pairedMedian(loopTimes, times.get(walkName(prefetch))!),
      })),
      ordered,
    };
  });
}

export async function measure() {
  return { ...(await walks()), toArray: await toArrayRequests() };
}

type PagingResult = Awaited<ReturnType<typeof measure>>;

function summary(paging: PagingResult) {
  const best = [...paging.speedups].sort((a, b) => b.speedup - a.speedup)[0]!;
  const exact = paging.toArray.every((r) => r.exact);
  const naive = paging.toArray.reduce((sum, r) => sum + r.naive.started, 0);
  const saved = naive - paging.toArray.reduce((sum, r) => sum + r.toArray.started, 0);
  return { best, met: best.speedup >= target && paging.ordered, exact, naive, saved };
}

function toArrayText(paging: PagingResult): string {
  const c = toArrayConfig;
  return `### toArray: requests saved

\`client.papers.search({ per_page: ${c.perPage} }, { prefetch }).toArray({ limit })\` against a naive \`for await\` that
breaks at the \`limit\`-th item, over ${count(c.papers)} papers at ${c.latencyMs} ms. *started*: requests the client began (its
\`fetch\` called); *received*: requests the server got (a prefetched request that the \`break\` aborts before
it is written never arrives). Medians of ${c.rounds} rounds; toArray must start exactly the pages up to the one
holding the limit-th item, and return the naive loop's items.

${table(
  [
    'limit',
    'prefetch',
    'pages needed',
    'naive: started / received',
    'toArray: started / received',
    'started requests saved',
    'exact',
  ],
  paging.toArray.map((r) => [
    count(r.limit),
    String(r.prefetch),
    String(r.needed),
    `${r.naive.started} / ${r.naive.received}`,
    `${r.toArray.started} / ${r.toArray.received}`,
    String(r.naive.started - r.toArray.started),
    r.exact ? 'yes' : '**no**',
  ]),
)}`;
}

export function rows(paging: PagingResult): Row[] {
  const s = summary(paging);
  const order = paging.ordered ? 'preserved' : '**not preserved**';
  return [
    {
      what: `${config.pages} pages at ${config.latencyMs} ms: sequential loop ÷ SDK iterator at its best prefetch`,
      figure: `${x(s.best.speedup, 1)} (prefetch ${s.best.prefetch}), order ${order}`,
      target: `≥ ${x(target, 1)}`,
      met: s.met,
    },
    {
      what: '`toArray({ limit })`: no page requested past the one holding the limit-th item',
      figure: `${s.exact ? 'exact in every case' : '**not exact**'}; ${s.saved} of ${s.naive} requests of a naive \`for await\` + \`break\` saved`,
      target: 'exact',
      met: s.exact,
    },
  ];
}

export const text = (paging: PagingResult) => {
  const { pages, perPage, latencyMs } = config;
  const s = summary(paging);
  const loopMs = find(paging.contenders, (c) => c.name === loopName, 'the loop').ms;
  return `## 7. Paging

${pages} pages of ${perPage} papers (one journal holding ${count(pages * perPage)} papers in the mock), every answer held back
${latencyMs} ms by the mock. The loop asks for one page after the other with \`fetch\` until \`total\` is reached;
the SDK walks \`for await (const paper of client.journals.papers(1, { per_page: ${perPage} }, { prefetch }))\`.
${paging.rounds} rounds, round-robin; every walk is compared item by item with the loop's: order ${paging.ordered ? 'preserved in every walk' : '**not preserved**'}.

${table(
  ['contender', `time for ${pages} pages`, 'loop ÷ contender (paired)'],
  paging.contenders.map((c) => {
    const speedup = paging.speedups.find((q) => q.name === c.name)?.speedup;
    return [c.name, ms(c.ms), speedup === undefined ? '1' : x(speedup)];
  }),
)}

Target ≥ ${x(target, 1)} at the best setting: ${verdict(s.met)} at ${x(s.best.speedup, 1)} (prefetch ${s.best.prefetch}; the loop took ${ms(loopMs)}). \`prefetch\`
is how many pages may be in flight while the walk yields (default 1, at most 8); the first page comes back
alone, as it tells \`total\` and the page size.

${toArrayText(paging)}`;
};
