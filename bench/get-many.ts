/**
 * Bulk lookups: 200 papers by DOI from the mock API, each answer held back 20 ms by the server. One
 * `papers.get` after the other, against `papers.getMany` at a few `concurrency` settings (8 is the
 * headline). Every contender must return the same 200 papers in the same order. Only types are
 * exported: importing a value from here would run the benchmark.
 */
import { deepStrictEqual } from 'node:assert';
import { loadSdk, loadTesting, median, report, startServer } from './lib.js';

const count = 200;
const latencyMs = 20;
const concurrencies = [4, 8, 16] as const;
const rounds = 5;
const sequentialName = 'papers.get, one after the other';
const getManyName = (concurrency: number) => `papers.getMany, concurrency ${concurrency}`;

export interface GetManyResult {
  dois: number;
  latencyMs: number;
  rounds: number;
  /** Median milliseconds per 200 lookups, by contender. */
  contenders: Array<{ name: string; concurrency?: number; ms: number }>;
  /** Median of the per-round ratio: sequential time over this contender's time (higher is faster). */
  speedups: Array<{ name: string; concurrency: number; speedup: number }>;
  /** Whether every run of every contender returned the sequential run's papers, in order. */
  identical: boolean;
}

async function main(): Promise<GetManyResult> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY, createMockApi } = await loadTesting();
  // The server's dataset is the default one: a local copy of it names 200 DOIs that exist there.
  const dois = createMockApi()
    .dataset.papers.slice(0, count)
    .map((paper) => paper.doi);
  const server = await startServer({ kind: 'mock', options: { faults: { latencyMs } } });
  try {
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url });
    const sequential = async () => {
      const papers = [];
      for (const doi of dois) papers.push(await client.papers.get(doi));
      return papers;
    };
    const many = (concurrency: number) => async () => {
      const results = await client.papers.getMany(dois, { concurrency });
      return results.map((result) => {
        if (result.error) throw result.error;
        return result.paper;
      });
    };
    const contenders = [
      { name: sequentialName, concurrency: undefined, run: sequential },
      ...concurrencies.map((c) => ({ name: getManyName(c), concurrency: c, run: many(c) })),
    ];

    const expected = await sequential();
    if (expected.length !== count || expected.some((paper, i) => paper.doi !== dois[i])) {
      throw new Error('the mock did not answer every DOI with its paper');
    }
    // One untimed run each: connections opened, code warmed.
    for (const contender of contenders.slice(1)) await contender.run();

    let identical = true;
    const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < contenders.length; k++) {
        const contender = contenders[(k + round) % contenders.length]!;
        const started = performance.now();
        const papers = await contender.run();
        times.get(contender.name)!.push(performance.now() - started);
        try {
          deepStrictEqual(papers, expected);
        } catch {
          identical = false;
        }
      }
    }
    const sequentialTimes = times.get(sequentialName)!;
    return {
      dois: count,
      latencyMs,
      rounds,
      contenders: contenders.map(({ name, concurrency }) => ({
        name,
        ...(concurrency === undefined ? {} : { concurrency }),
        ms: median(times.get(name)!),
      })),
      speedups: concurrencies.map((concurrency) => ({
        name: getManyName(concurrency),
        concurrency,
        speedup: median(
          times.get(getManyName(concurrency))!.map((ms, round) => sequentialTimes[round]! / ms),
        ),
      })),
      identical,
    };
  } finally {
    await server.close();
  }
}

await report(main);
