/**
 * The cache (issue 16). Two measurements, in this process, against the built package:
 *
 * 1. A hit against a request: `journals.get` answered from the memory store, and from Redis over
 *    loopback (@keyv/redis, a redis-server started here, when one is installed), each against the same
 *    call sent without a cache to the mock API in a process of its own, over loopback. Round-robin,
 *    paired ratios.
 * 2. A replayed dashboard day: 10,000 calls (journals drawn Zipf-like; lists, score histories,
 *    searches and reference lists mixed in) on a simulated clock that moves 8.64 s per call, with
 *    score changes at random moments, each delivered in-process to a webhook receiver wired with
 *    `client.cache`. Counted: requests sent with the cache and without, and answers whose score is not
 *    the mock's truth at the moment of the call (every webhook is handled before the next call, so
 *    any difference is a score older than the last webhook handled). No real-time waits.
 *
 * 3. What the store checks of issue 21 add to a hit: the cost of the identity check (every hit runs it)
 *    and of the encoded-key check over the entry a hit was kept as (run when an answer is kept), each
 *    over a memory hit's, measured round by round, round-robin.
 *
 * Run alone: `npx tsx bench/cache.ts` (after `npm run build`); `BENCH_CACHE_ONLY=hits`, `=day` or
 * `=checks` runs one part. Only types are exported: importing a value from here would run the benchmark.
 */

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  dist,
  interleave,
  loadSdk,
  loadTesting,
  pairedRatios,
  report,
  type Spread,
  spread,
  startServer,
} from './lib.js';
import { cacheNames } from './report-cache.js';

export interface CacheResult {
  /** µs per call, by contender; ratios of each hit to the uncached request, paired per round. */
  hits: {
    rounds: number;
    batch: number;
    contenders: Array<{ name: string; wall: Spread }>;
    ratios: Array<{ name: string; wall: Spread }>;
    /** Why Redis was not measured, when it was not. */
    redisSkipped?: string;
  };
  day: {
    calls: number;
    webhooks: number;
    sentWithout: number;
    sentWith: number;
    stale: number;
    /** Wall time of the replay with the cache, in ms (for scale only). */
    ms: number;
  };
  /** A memory hit and each check: µs per call; a hit with the check ÷ the hit, paired per round. */
  checks?: {
    rounds: number;
    batch: number;
    contenders: Array<{ name: string; wall: Spread }>;
    ratios: Array<{ name: string; wall: Spread }>;
  };
}

/** mulberry32: a small seeded generator, so that every run replays the same day. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws 1..n with weight 1/k^s: a few journals are asked for most of the time. */
function zipf(n: number, s: number, next: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** s;
    cumulative.push(total);
  }
  return () => {
    const target = next() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}

async function hits(): Promise<CacheResult['hits']> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  const server = await startServer({ kind: 'mock' });
  let redis: { url: string; close(): Promise<void> } | undefined;
  let redisSkipped: string | undefined;
  let store: { disconnect(): Promise<void> } | undefined;
  try {
    const plain = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url });
    const memory = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, cache: true });
    const contenders: Array<{ name: string; run: () => ReturnType<typeof plain.journals.get> }> = [
      { name: cacheNames.uncached, run: () => plain.journals.get(7) },
      { name: cacheNames.memory, run: () => memory.journals.get(7) },
    ];
    try {
      const { startRedisServer } = await import('../test/helpers/redis-server.js');
      redis = await startRedisServer();
      const { default: Keyv } = await import('keyv');
      const { default: KeyvRedis } = await import('@keyv/redis');
      const keyv = new Keyv(new KeyvRedis(redis.url));
      keyv.on('error', () => {});
      store = keyv;
      const shared = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, cache: { store: keyv } });
      contenders.push({ name: cacheNames.redis, run: () => shared.journals.get(7) });
    } catch (error) {
      redisSkipped = (error as Error).message;
    }
    for (const contender of contenders) {
      const { cacheStatus } = await contender.run().withResponse();
      const expected = contender.name === cacheNames.uncached ? 'off' : 'miss';
      if (cacheStatus !== expected) throw new Error(`${contender.name}: ${cacheStatus}, not ${expected}`);
    }
    const rounds = 30;
    const batch = 40;
    const samples = await interleave(contenders, { rounds, batch, warmup: 40 });
    const wall = (name: string) => samples.get(name)!.wall;
    return {
      rounds,
      batch,
      contenders: contenders.map(({ name }) => ({ name, wall: spread(wall(name)) })),
      ratios: contenders
        .filter(({ name }) => name !== cacheNames.uncached)
        .map(({ name }) => ({ name, wall: spread(pairedRatios(wall(name), wall(cacheNames.uncached))) })),
      ...(redisSkipped !== undefined && { redisSkipped }),
    };
  } finally {
    await store?.disconnect().catch(() => {});
    await redis?.close();
    await server.close();
  }
}

async function day(): Promise<CacheResult['day']> {
  const calls = 10_000;
  const webhooks = 60;
  const step = 86_400_000 / calls;
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY, MOCK_BASE_URL, createMockApi } = await loadTesting();
  const { createWebhookHandler } = (await import(
    pathToFileURL(join(dist, 'webhooks.js')).href
  )) as typeof import('../src/webhooks/index.js');
  const realNow = Date.now;
  const queries = [
    'coral',
    'graphene',
    'neural',
    'climate',
    'quantum',
    'protein',
    'learning',
    'soil',
    'ocean',
    'cell',
  ];

  const replay = async (cached: boolean) => {
    let now = Date.parse('2026-03-02T00:00:00Z');
    Date.now = () => now;
    let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 204 });
    const api = createMockApi({
      now: () => now,
      webhooks: {
        urls: ['https://dashboard.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    let sent = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      sent++;
      return api.fetch(input, init);
    };
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch, cache: cached });
    if (cached) handle = createWebhookHandler(() => {}, { cache: client.cache });
    const next = random(16);
    const journal = zipf(api.dataset.journals.length, 1.1, next);
    const query = zipf(queries.length, 1, next);
    const changes = new Set<number>();
    while (changes.size < webhooks) changes.add(Math.floor(next() * calls));
    const truth = (id: number) => api.dataset.journal(id)!.metric_score;
    let stale = 0;
    for (let i = 0; i < calls; i++) {
      now += step;
      if (changes.has(i)) {
        const id = journal();
        const current = truth(id);
        let score = Math.floor(next() * 100);
        if (score === current) score = (score + 1) % 100;
        const { deliveries } = await api.updateScore(id, score);
        if (cached && !deliveries[0]?.ok) throw new Error('a webhook was not delivered');
      }
      const r = next();
      if (r < 0.45) {
        const id = journal();
        if ((await client.journals.get(id)).metric_score !== truth(id)) stale++;
      } else if (r < 0.65) {
        const id = journal();
        if ((await client.journals.score(id)).current !== truth(id)) stale++;
      } else if (r < 0.75) {
        const list = await client.journals.list();
        if (list.some((j) => j.metric_score !== truth(j.id))) stale++;
      } else if (r < 0.85) {
        await client.papers.search({ q: queries[query() - 1], page: next() < 0.8 ? 1 : 2 });
      } else if (r < 0.9) {
        await client.journals.papers(journal());
      } else if (r < 0.95) {
        await client.subjects.list();
      } else {
        await client.countries.list({ show: next() < 0.5 ? 'all' : 'active' });
      }
    }
    Date.now = realNow;
    return { sent, stale };
  };

  const without = await replay(false);
  const started = performance.now();
  const withCache = await replay(true);
  const ms = performance.now() - started;
  if (without.sent !== calls) throw new Error(`without a cache, ${without.sent} requests for ${calls} calls`);
  return {
    calls,
    webhooks,
    sentWithout: without.sent,
    sentWith: withCache.sent,
    stale: withCache.stale + without.stale,
    ms,
  };
}

async function checks(): Promise<NonNullable<CacheResult['checks']>> {
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY } = await loadTesting();
  // The checks as the cache runs them: the source, since the built package exports neither.
  const { misplaced } = await import('../src/cache/entry-checks.js');
  const { mentionsSecret } = await import('../src/core/redact.js');
  const { encodeEntry } = await import('../src/cache/entry.js');
  const { endpoints } = await import('../src/api/endpoints.js');
  const { routeTo } = await import('../src/core/endpoint.js');
  const server = await startServer({ kind: 'mock' });
  try {
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, cache: true });
    const { data, response } = await client.journals.get(7).withResponse();
    const entry = encodeEntry(response, JSON.stringify(data), '0'.repeat(32), Date.now(), Date.now() + 1);
    const route = routeTo(endpoints.journals.get, { id: 7 });
    let sink = 0;
    // Each task's cost per call, µs: the hit awaited call by call, the checks run in a tight loop.
    const tasks: Array<{ name: string; calls: number; run: () => Promise<void> | void }> = [
      { name: cacheNames.memory, calls: 400, run: async () => void (await client.journals.get(7)) },
      {
        name: cacheNames.identityCheck,
        calls: 20_000,
        run: () => void (misplaced(route, data) ?? sink++),
      },
      {
        name: cacheNames.keyCheck,
        calls: 20_000,
        run: () => void (mentionsSecret(entry, MOCK_API_KEY) || sink++),
      },
    ];
    const timings = new Map<string, number[]>(tasks.map(({ name }) => [name, []]));
    const rounds = 30;
    for (let round = -3; round < rounds; round++) {
      for (let k = 0; k < tasks.length; k++) {
        const task = tasks[(k + Math.max(0, round)) % tasks.length]!;
        const started = performance.now();
        for (let n = 0; n < task.calls; n++) await task.run();
        // The first rounds warm up and are not counted.
        if (round >= 0) timings.get(task.name)!.push(((performance.now() - started) * 1000) / task.calls);
      }
    }
    if (sink === 0) throw new Error('the checks refused the answer');
    const hit = timings.get(cacheNames.memory)!;
    return {
      rounds,
      batch: tasks[0]!.calls,
      contenders: tasks.map(({ name }) => ({ name, wall: spread(timings.get(name)!) })),
      // A hit with the check added, ÷ the hit: 1 + the check's cost over the hit's, paired per round.
      ratios: tasks.slice(1).map(({ name }) => ({
        name,
        wall: spread(timings.get(name)!.map((cost, i) => 1 + cost / hit[i]!)),
      })),
    };
  } finally {
    await server.close();
  }
}

async function main(): Promise<CacheResult> {
  const only = process.env.BENCH_CACHE_ONLY;
  const dayResult = only === undefined || only === 'day' ? await day() : undefined;
  const hitsResult = only === undefined || only === 'hits' ? await hits() : undefined;
  const checksResult = only === undefined || only === 'checks' ? await checks() : undefined;
  return { hits: hitsResult!, day: dayResult!, ...(checksResult && { checks: checksResult }) };
}

await report(main);
