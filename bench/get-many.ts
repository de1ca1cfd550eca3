// §8, bulk lookups by DOI, each answer held back by the server: `papers.get` one after the other against
// `papers.getMany` at a few `concurrency` settings; every contender must return the same papers in order.
import { deepStrictEqual } from 'node:assert';
import { ms, type Row, table, x } from './format.js';
import { loadTesting, median, pairedMedian, roundRobin, scaled, sdk, timed, withServer } from './lib.js';

export const about = { id: '8', key: 'getMany', file: 'get-many.ts' } as const;

const config = { dois: 200, latencyMs: 20, concurrencies: [4, 8, 16], headline: 8 };
const sequentialName = 'papers.get, one after the other';
const getManyName = (concurrency: number) => `papers.getMany, concurrency ${concurrency}`;

export async function measure() {
  const { dois: count, latencyMs, concurrencies } = config;
  const { createMockApi } = await loadTesting();
  // The server's dataset is the default one: a local copy of it names DOIs that exist there.
  const dois = createMockApi()
    .dataset.papers.slice(0, count)
    .map((paper) => paper.doi);
  return withServer({ kind: 'mock', options: { faults: { latencyMs } } }, async ({ url }) => {
    const client = await sdk(url);
    const sequential = async () => {
      const papers = [];
      for (const doi of dois) papers.push(await client.papers.get(doi));
      return papers;
    };
    const many = (concurrency: number) => async () =>
      (await client.papers.getMany(dois, { concurrency })).map((result) => {
        if (result.error) throw result.error;
        return result.paper;
      });
    const runs = new Map([
      [sequentialName, sequential],
      ...concurrencies.map((c) => [getManyName(c), many(c)] as const),
    ]);
    const expected = await sequential();
    if (expected.length !== count || expected.some((paper, i) => paper.doi !== dois[i])) {
      throw new Error('the mock did not answer every DOI with its paper');
    }
    // One untimed run each: connections opened, code warmed.
    for (const c of concurrencies) await many(c)();
    let identical = true;
    const rounds = scaled(5, 1);
    const times = await roundRobin([...runs.keys()], rounds, async (name) => {
      const { ms, value } = await timed(runs.get(name)!);
      try {
        deepStrictEqual(value, expected);
      } catch {
        identical = false;
      }
      return ms;
    });
    return {
      dois: count,
      latencyMs,
      rounds,
      contenders: [...times].map(([name, list], n) => ({
        name,
        ...(n > 0 && { concurrency: concurrencies[n - 1]! }),
        ms: median(list),
      })),
      /** Sequential time over the contender's, paired per round (higher is faster). */
      speedups: concurrencies.map((concurrency) => ({
        name: getManyName(concurrency),
        concurrency,
        speedup: pairedMedian(times.get(sequentialName)!, times.get(getManyName(concurrency))!),
      })),
      identical,
    };
  });
}

type GetManyResult = Awaited<ReturnType<typeof measure>>;

export function rows(g: GetManyResult): Row[] {
  const headline = g.speedups.find((s) => s.concurrency === config.headline) ?? g.speedups[0]!;
  return [
    {
      what: `\`getMany\` of ${g.dois} DOIs at ${g.latencyMs} ms: one by one ÷ concurrency ${headline.concurrency}`,
      figure: `${x(headline.speedup, 1)} faster${g.identical ? '' : ', **results differ**'}`,
    },
  ];
}

export const text = (g: GetManyResult) => `## 8. getMany

bench/get-many.ts: ${g.dois} DOIs from the mock at ${g.latencyMs} ms of latency, \`papers.get\` one after the other against
\`papers.getMany\` at a few \`concurrency\` settings, ${g.rounds} rounds, round-robin; every run must return the same papers in
the same order: ${g.identical ? 'they did' : '**they did not**'}.

${table(
  ['contender', `time for ${g.dois} lookups`, 'one by one ÷ contender (paired)'],
  g.contenders.map((c) => {
    const speedup = g.speedups.find((q) => q.name === c.name)?.speedup;
    return [c.name, ms(c.ms), speedup === undefined ? '1' : x(speedup, 1)];
  }),
)}`;
