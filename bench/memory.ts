/**
 * 4. Memory: 1,000,000 papers through one `for await`, 100 per page, in a process of its own: bench/run.ts
 * starts one per contender, with --expose-gc so that the starting point is measured after a full
 * collection. The pages come from a server that makes them up as they are asked for, in yet another
 * process, so that what grows is the client's alone.
 *
 * Beside the SDK, the same walk by a plain `fetch` loop and by a `node:http` loop: what the runtime
 * itself costs for 10,000 requests, with and without `fetch`.
 */
import { Agent, request } from 'node:http';
import { memory } from './config.js';
import { collectGarbage, loadSdk, report, startServer } from './lib.js';

const { items, perPage } = memory;

export type MemoryContender =
  | { kind: 'sdk'; prefetch: number }
  | { kind: 'sdk over node:http' }
  | { kind: 'fetch' }
  | { kind: 'http' };

export interface MemoryResult {
  contender: MemoryContender;
  items: number;
  /** RSS in MB just before the walk, after a full collection. */
  baselineMB: number;
  /** Highest RSS in MB during the walk, sampled every 10 pages. */
  peakMB: number;
  growthMB: number;
  /** Heap in use after the walk and a full collection, minus the same before: what the walk kept. */
  retainedMB: number;
  seconds: number;
  ordered: boolean;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

interface Body {
  data: Array<{ id: number }>;
  total: number;
}

/** node:http, keep-alive, no `fetch`: the runtime's floor for the same requests. */
function httpGet(url: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * A `fetch` over node:http, enough for GETs of JSON: the SDK takes any `fetch`, and this one's responses
 * are plain `new Response(text)`, without the bookkeeping Node's own `fetch` keeps for each.
 */
function httpFetch(agent: Agent): typeof fetch {
  return async (input) => {
    const text = await httpGet(String(input), agent);
    return new Response(text, { headers: { 'content-type': 'application/json' } });
  };
}

/** Every paper of the walk, in order. */
async function* walk(contender: MemoryContender, baseUrl: string): AsyncGenerator<{ id: number }> {
  const pageUrl = (page: number) => `${baseUrl}/journals/1/papers?page=${page}&per_page=${perPage}`;
  const agent = new Agent({ keepAlive: true });
  if (contender.kind === 'sdk' || contender.kind === 'sdk over node:http') {
    const { MetricClient } = await loadSdk();
    const client = new MetricClient({
      apiKey: 'sk_bench_memory',
      baseUrl,
      ...(contender.kind === 'sdk' ? {} : { fetch: httpFetch(agent) }),
    });
    const prefetch = contender.kind === 'sdk' ? contender.prefetch : 1;
    yield* client.journals.papers(1, { per_page: perPage }, { prefetch });
    agent.destroy();
    return;
  }
  for (let page = 1, seen = 0; ; page++) {
    const text =
      contender.kind === 'fetch'
        ? await (await fetch(pageUrl(page))).text()
        : await httpGet(pageUrl(page), agent);
    const body = JSON.parse(text) as Body;
    yield* body.data;
    seen += body.data.length;
    if (body.data.length === 0 || seen >= body.total) break;
  }
  agent.destroy();
}

async function main(): Promise<MemoryResult> {
  const contender = JSON.parse(process.argv[2] ?? '{"kind":"sdk","prefetch":1}') as MemoryContender;
  const server = await startServer({ kind: 'synth', total: items });
  try {
    // Load and compile what a walk uses (its first three pages), so that it is not counted as growth.
    let warm = 0;
    for await (const _ of walk(contender, server.url)) if (++warm === perPage * 3) break;
    await collectGarbage();
    const baseline = process.memoryUsage();
    let peak = baseline.rss;
    let expected = 1;
    let ordered = true;
    const started = performance.now();
    for await (const paper of walk(contender, server.url)) {
      if (paper.id !== expected) ordered = false;
      if (expected % (perPage * 10) === 0) peak = Math.max(peak, process.memoryUsage.rss());
      expected++;
    }
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage.rss());
    await collectGarbage();
    return {
      contender,
      items: expected - 1,
      baselineMB: mb(baseline.rss),
      peakMB: mb(peak),
      growthMB: mb(peak - baseline.rss),
      retainedMB: mb(process.memoryUsage().heapUsed - baseline.heapUsed),
      seconds,
      ordered: ordered && expected - 1 === items,
    };
  } finally {
    await server.close();
  }
}

await report(main);
