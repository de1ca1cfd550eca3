// §8, bulk lookups by DOI: `papers.get` one after the other against `papers.getMany`, answers held back.
import { speedTable, x } from './format.js';
import { loadTesting, raceRuns, scaled, sdk, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '8', key: 'getMany', file: 'get-many.ts', title: 'getMany' };

const config = { dois: 200, latencyMs: 20, concurrencies: [4, 8, 16], headline: 8 };

export async function measure() {
  const { dois: count, latencyMs, concurrencies } = config;
  // The server's dataset is the default one: a local copy of it names DOIs that exist there.
  const papers = (await loadTesting()).createMockApi().dataset.papers.slice(0, count);
  const dois = papers.map((paper) => paper.doi);
  return withServer({ kind: 'mock', options: { faults: { latencyMs } } }, async ({ url }) => {
    const client = await sdk(url);
    const sequential = async () => {
      const found = [];
      for (const doi of dois) found.push(await client.papers.get(doi));
      if (found.some((paper, i) => paper.doi !== dois[i]))
        throw new Error('the mock did not answer every DOI');
      return found;
    };
    const many = (concurrency: number) => async () =>
      (await client.papers.getMany(dois, { concurrency })).map((result) => {
        if (result.error) throw result.error;
        return result.paper;
      });
    // One untimed run each: connections opened, code warmed.
    for (const c of concurrencies) await many(c)();
    const named = concurrencies.map((c) => [`papers.getMany, concurrency ${c}`, many(c)]);
    const runs = Object.fromEntries([['papers.get, one after the other', sequential], ...named]);
    const { same, speedups, ...rest } = await raceRuns(runs, scaled(5, 1));
    const bySetting = speedups.map((s, n) => ({ ...s, concurrency: concurrencies[n]! }));
    return { dois: count, latencyMs, ...rest, speedups: bySetting, identical: same };
  });
}

export function report(g: Results['getMany']): Report {
  const headline = g.speedups.find((s) => s.concurrency === config.headline) ?? g.speedups[0]!;
  const what = `\`getMany\` of ${g.dois} DOIs at ${g.latencyMs} ms: one by one ÷ concurrency ${headline.concurrency}`;
  const figure = `${x(headline.speedup, 1)} faster${g.identical ? '' : ', **results differ**'}`;
  const text = `${g.dois} DOIs from the mock at ${g.latencyMs} ms of latency, \`papers.get\` one after the other against \`papers.getMany\` at a
few \`concurrency\` settings, ${g.rounds} rounds, round-robin; every run must return the same papers in the same order: ${g.identical ? 'they did' : '**they did not**'}.

${speedTable(g, ['contender', `time for ${g.dois} lookups`, 'one by one ÷ contender (paired)'], (n) => x(n, 1))}`;
  return { rows: [{ what, figure }], text };
}
