// §10, a replayed dashboard day on a simulated clock, with the cache and without: requests, stale answers.
import { loadDist, loadSdk, loadTesting, scaled } from './lib.js';

export const dayConfig = { calls: scaled(10_000, 1_000), webhooks: 60, zipf: 1.1 };
const queries = 'coral graphene neural climate quantum protein learning soil ocean cell'.split(' ');

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
    let [low, high] = [0, n - 1];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}

/** One replay of the day, with the cache or without: requests sent, and stale answers. */
async function replay(cached: boolean): Promise<{ sent: number; stale: number }> {
  const { calls, webhooks } = dayConfig;
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY, MOCK_BASE_URL, createMockApi } = await loadTesting();
  const { createWebhookHandler } = await loadDist<typeof import('../src/webhooks/index.js')>('webhooks.js');
  let now = Date.parse('2026-03-02T00:00:00Z');
  const realNow = Date.now;
  Date.now = () => now;
  let handle = async (_: Request) => new Response(null, { status: 204 });
  const hooks = {
    urls: ['https://dashboard.test/hooks'],
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init)),
  };
  const api = createMockApi({ now: () => now, webhooks: hooks });
  let sent = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    sent++;
    return api.fetch(input, init);
  };
  const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch, cache: cached });
  if (cached) handle = createWebhookHandler(() => {}, { cache: client.cache });
  const next = random(16);
  const journal = zipf(api.dataset.journals.length, dayConfig.zipf, next);
  const query = zipf(queries.length, 1, next);
  const changes = new Set<number>();
  while (changes.size < webhooks) changes.add(Math.floor(next() * calls));
  const truth = (id: number) => api.dataset.journal(id)!.metric_score;
  let stale = 0;
  for (let i = 0; i < calls; i++) {
    now += 86_400_000 / calls;
    if (changes.has(i)) {
      const id = journal();
      const score = Math.floor(next() * 100);
      const { deliveries } = await api.updateScore(id, score === truth(id) ? (score + 1) % 100 : score);
      if (cached && !deliveries[0]?.ok) throw new Error('a webhook was not delivered');
    }
    const r = next();
    const id = r < 0.65 ? journal() : 0;
    if (r < 0.45) {
      if ((await client.journals.get(id)).metric_score !== truth(id)) stale++;
    } else if (r < 0.65) {
      if ((await client.journals.score(id)).current !== truth(id)) stale++;
    } else if (r < 0.75) {
      if ((await client.journals.list()).some((j) => j.metric_score !== truth(j.id))) stale++;
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
}

export async function day() {
  const { calls, webhooks } = dayConfig;
  const without = await replay(false);
  if (without.sent !== calls) throw new Error(`without a cache, ${without.sent} requests for ${calls} calls`);
  const started = performance.now();
  const withCache = await replay(true);
  const [ms, stale] = [performance.now() - started, withCache.stale + without.stale];
  return { calls, webhooks, sentWithout: without.sent, sentWith: withCache.sent, stale, ms };
}
