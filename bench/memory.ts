/**
 * 4. Memory: 1,000,000 papers through one `for await`, 100 per page, in a process of its own: bench/run.ts
 * starts one per contender and round, with --expose-gc so that the starting point is measured after a
 * full collection. The pages come from a server that makes them up as they are asked for, in yet
 * another process, so that what grows is the client's alone.
 *
 * The yardstick is the same walk by ky used by hand (the SDK's `ky.create` settings and headers,
 * `.text()` + `JSON.parse`): both go through ky and the runtime's `fetch`, so what the SDK's walk adds
 * over it is the SDK's. The same ky loop checking each page as the SDK does tells the check's share
 * from the rest; a plain `fetch` loop and a `node:http` loop show what the runtime itself costs.
 */
import { Agent, request } from 'node:http';
import ky from 'ky';
import { userAgent } from '../src/core/user-agent.js';
import { memory } from './config.js';
import { collectGarbage, loadSdk, report, startServer } from './lib.js';

const { items, perPage } = memory;
const apiKey = 'sk_bench_memory';

export type MemoryContender =
  | { kind: 'sdk'; prefetch: number }
  | { kind: 'ky' }
  | { kind: 'ky, checked' }
  | { kind: 'fetch' }
  | { kind: 'http' };

export interface MemoryResult {
  contender: MemoryContender;
  /** Which round of bench/run.ts this walk belongs to (set by run.ts). */
  round?: number;
  items: number;
  /** RSS in MB just before the walk, after a full collection. */
  baselineMB: number;
  /** Highest RSS in MB during the walk, sampled every 10 pages. */
  peakMB: number;
  /** The process's highest RSS in MB over its life (the kernel's count, nothing missed between samples). */
  maxRssMB: number;
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

/** Every paper of the walk, in order. */
async function* walk(contender: MemoryContender, baseUrl: string): AsyncGenerator<{ id: number }> {
  const pageUrl = (page: number) => `${baseUrl}/journals/1/papers?page=${page}&per_page=${perPage}`;
  if (contender.kind === 'sdk') {
    const { MetricClient } = await loadSdk();
    const client = new MetricClient({ apiKey, baseUrl });
    yield* client.journals.papers(1, { per_page: perPage }, { prefetch: contender.prefetch });
    return;
  }
  // The SDK's settings and headers (src/core/transport.ts), loaded only by this contender.
  const agentName = userAgent();
  const headers = {
    accept: 'application/json',
    authorization: `Bearer ${apiKey}`,
    ...(agentName && { 'user-agent': agentName }),
  };
  const byHand = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, headers });
  const agent = new Agent({ keepAlive: true });
  // The SDK's check of each page (its generated parser; zod only for what it refuses), loaded only when used.
  const check =
    contender.kind === 'ky, checked'
      ? (await import('../src/schemas/shapes.js')).shapes.journalPaperPage.parse
      : undefined;
  const parse = (text: string): Body => {
    if (!check) return JSON.parse(text) as Body;
    const result = check(JSON.parse(text));
    if (typeof result === 'symbol') throw new Error('the generated parser refused the page');
    return result;
  };
  const get = async (url: string) => {
    if (contender.kind === 'ky' || contender.kind === 'ky, checked') return (await byHand.get(url)).text();
    if (contender.kind === 'fetch') return (await fetch(url, { headers })).text();
    return httpGet(url, agent);
  };
  for (let page = 1, seen = 0; ; page++) {
    const text = await get(pageUrl(page));
    const body = parse(text);
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
      maxRssMB: process.resourceUsage().maxRSS / 1024,
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
