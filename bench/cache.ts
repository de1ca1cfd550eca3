// §10, the cache, built package: hits against the same call sent, a replayed day, the store checks on a hit.
import { atMost, count, named, spreadTable, us, x } from './format.js';
import { compare, loadDist, loadSdk, loadTesting, scaled, sdk, spread, withServer } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '10', key: 'cache', file: 'cache.ts', title: 'The cache' };

const names = {
  uncached: 'journals.get, no cache, loopback',
  memory: 'journals.get, memory hit',
  redis: 'journals.get, Redis hit (loopback)',
  identityCheck: 'the identity check (journal id against its path)',
  keyCheck: 'the encoded-key check of a kept entry',
} as const;
const targets = { memoryHit: 0.05, redisHit: 0.5, dayRequests: 0.2, checks: 1.05 };
const dayConfig = { calls: scaled(10_000, 1_000), webhooks: 60, zipf: 1.1 };

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
  let total = 0;
  const cumulative = Array.from({ length: n }, (_, k) => (total += 1 / (k + 1) ** s));
  return () => {
    const target = next() * total;
    return cumulative.findIndex((c) => c >= target) + 1;
  };
}

/** One replay of the day, with the cache or without: requests sent, and stale answers. */
async function replay(cached: boolean): Promise<{ sent: number; stale: number }> {
  const { calls, webhooks } = dayConfig;
  const { MetricClient } = await loadSdk();
  const { MOCK_API_KEY, MOCK_BASE_URL, createMockApi } = await loadTesting();
  const { createWebhookHandler } = await loadDist<typeof import('../src/webhooks/index.js')>('webhooks.js');
  const realNow = Date.now;
  let now = Date.parse('2026-03-02T00:00:00Z');
  Date.now = () => now;
  let handle = async (_: Request) => new Response(null, { status: 204 });
  const hooks = {
    urls: ['https://dashboard.test/hooks'],
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init)),
  };
  const api = createMockApi({ now: () => now, webhooks: hooks });
  let [sent, stale] = [0, 0];
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
  const tally = (isStale: boolean) => (stale += Number(isStale));
  for (let i = 0; i < calls; i++) {
    now += 86_400_000 / calls;
    if (changes.has(i)) {
      const [id, score] = [journal(), Math.floor(next() * 100)];
      const { deliveries } = await api.updateScore(id, score === truth(id) ? (score + 1) % 100 : score);
      if (cached && !deliveries[0]?.ok) throw new Error('a webhook was not delivered');
    }
    const r = next();
    const id = r < 0.65 ? journal() : 0;
    if (r < 0.45) tally((await client.journals.get(id)).metric_score !== truth(id));
    else if (r < 0.65) tally((await client.journals.score(id)).current !== truth(id));
    else if (r < 0.75) tally((await client.journals.list()).some((j) => j.metric_score !== truth(j.id)));
    else if (r < 0.85) await client.papers.search({ q: queries[query() - 1], page: next() < 0.8 ? 1 : 2 });
    else if (r < 0.9) await client.journals.papers(journal());
    else if (r < 0.95) await client.subjects.list();
    else await client.countries.list({ show: next() < 0.5 ? 'all' : 'active' });
  }
  Date.now = realNow;
  return { sent, stale };
}

async function day() {
  const { calls, webhooks } = dayConfig;
  const without = await replay(false);
  if (without.sent !== calls) throw new Error(`without a cache, ${without.sent} requests for ${calls} calls`);
  const started = performance.now();
  const withCache = await replay(true);
  const [ms, stale] = [performance.now() - started, withCache.stale + without.stale];
  return { calls, webhooks, sentWithout: without.sent, sentWith: withCache.sent, stale, ms };
}

/** A client whose cache lives in a redis-server of its own, or why there is none. */
async function redisClient(baseUrl: string) {
  try {
    const redis = await (await import('../test/helpers/redis-server.js')).startRedisServer();
    const [{ default: Keyv }, { default: KeyvRedis }] = [await import('keyv'), await import('@keyv/redis')];
    const keyv = new Keyv(new KeyvRedis(redis.url));
    keyv.on('error', () => {});
    const close = async () => {
      await keyv.disconnect().catch(() => {});
      await redis.close();
    };
    return { client: await sdk(baseUrl, { cache: { store: keyv } }), close };
  } catch (error) {
    return { skipped: (error as Error).message };
  }
}

async function hits(url: string) {
  const redis = await redisClient(url);
  const [plain, memory, shared] = [await sdk(url), await sdk(url, { cache: true }), redis.client];
  try {
    const contenders = {
      [names.uncached]: () => plain.journals.get(7),
      [names.memory]: () => memory.journals.get(7),
      ...(shared && { [names.redis]: () => shared.journals.get(7) }),
    };
    for (const [name, run] of Object.entries(contenders)) {
      const { cacheStatus } = await run().withResponse();
      const expected = name === names.uncached ? 'off' : 'miss';
      if (cacheStatus !== expected) throw new Error(`${name}: ${cacheStatus}, not ${expected}`);
    }
    const options = { rounds: scaled(30, 4), batch: scaled(40, 5), warmup: scaled(40, 2) };
    const pairs = [names.memory, names.redis].map((name) => [name, names.uncached] as const);
    const figures = await compare(contenders, options, shared ? pairs : pairs.slice(0, 1));
    const contendersWall = figures.contenders.map(({ name, wall }) => ({ name, wall }));
    const ratios = figures.ratios.map((r) => ({ name: r.of, wall: r.wall }));
    const skipped = redis.skipped !== undefined && { redisSkipped: redis.skipped };
    return { rounds: figures.rounds, batch: figures.batch, contenders: contendersWall, ratios, ...skipped };
  } finally {
    await redis.close?.();
  }
}

/** Each check's cost per call in a tight loop, against a hit awaited call by call, round-robin. */
async function checks(url: string) {
  // The checks as the cache runs them: the source, since the built package exports neither.
  const { misplaced } = await import('../src/cache/entry-checks.js');
  const { mentionsSecret } = await import('../src/core/redact.js');
  const { encodeEntry } = await import('../src/cache/entry.js');
  const { VERSION } = await import('../src/core/version.js');
  const { endpoints } = await import('../src/api/endpoints.js');
  const { routeTo } = await import('../src/core/endpoint.js');
  const { MOCK_API_KEY } = await loadTesting();
  const client = await sdk(url, { cache: true });
  const { data, response } = await client.journals.get(7).withResponse();
  const [now, body] = [Date.now(), JSON.stringify(data)];
  const entry = encodeEntry(response, body, '0'.repeat(32), now, now + 1, VERSION);
  const route = routeTo(endpoints.journals.get, { id: 7 });
  // One operation: a hit, or a check run `perHit` times (a timer's resolution would swamp one).
  const perHit = 50;
  let sink = 0;
  const loop = (check: () => unknown) => () => {
    for (let n = 0; n < perHit; n++) check();
  };
  const runs = {
    [names.memory]: () => client.journals.get(7),
    [names.identityCheck]: loop(() => misplaced(route, data) ?? sink++),
    [names.keyCheck]: loop(() => mentionsSecret(entry, MOCK_API_KEY) || sink++),
  };
  const options = { rounds: scaled(30, 3), batch: scaled(400, 40), warmup: scaled(1200, 120) };
  const { rounds, batch, samples } = await compare(runs, options);
  if (sink === 0) throw new Error('the checks refused the answer');
  const perCall = (name: string) =>
    samples.get(name)!.wall.map((µs) => (name === names.memory ? µs : µs / perHit));
  // A hit with the check added, ÷ the hit: 1 + the check's cost over the hit's, paired per round.
  const hit = perCall(names.memory);
  const over = (name: string) => perCall(name).map((cost, i) => 1 + cost / hit[i]!);
  const ratios = [names.identityCheck, names.keyCheck].map((name) => ({ name, wall: spread(over(name)) }));
  const contenders = Object.keys(runs).map((name) => ({ name, wall: spread(perCall(name)) }));
  return { rounds, batch, contenders, ratios };
}

export const measure = async () => ({
  day: await day(),
  hits: await withServer({ kind: 'mock' }, ({ url }) => hits(url)),
  checks: await withServer({ kind: 'mock' }, ({ url }) => checks(url)),
});

export function report({ hits, day, checks }: Results['cache']): Report {
  const memory = named(hits.ratios, names.memory).wall.median;
  const redis = hits.ratios.find((r) => r.name === names.redis)?.wall.median ?? Number.NaN;
  const share = day.sentWith / day.sentWithout;
  const checked = (name: string) => {
    const r = named(checks.ratios, name).wall.median;
    return atMost(`a memory hit with ${name} ÷ the hit without it`, x(r, 3), r, targets.checks);
  };
  const dayWhat = `a replayed dashboard day (${count(day.calls)} calls, ${day.webhooks} webhooks): requests with the cache ÷ without; stale scores`;
  const [dayFigure, dayTarget] = [`${x(share, 3)}; ${day.stale} stale`, `${x(targets.dayRequests)}; 0`];
  const hit = (from: string) => `a cache hit from ${from} ÷ the same call sent over loopback`;
  const redisFigure = Number.isNaN(redis) ? `not measured: ${hits.redisSkipped}` : x(redis);
  const rows = [
    atMost(hit('memory'), x(memory, 3), memory, targets.memoryHit),
    atMost(hit('Redis on loopback'), redisFigure, redis, targets.redisHit),
    atMost(dayWhat, dayFigure, share, targets.dayRequests, dayTarget, day.stale === 0),
    checked(names.identityCheck),
    checked(names.keyCheck),
  ];
  const timings = (part: typeof hits | typeof checks, head: string) =>
    spreadTable(['contender', 'per call', head], part.contenders, us, part.ratios, (n) => x(n, 3));
  const text = `Hits: \`journals.get(7)\` from the memory store (\`cache: true\`) and from Redis (\`@keyv/redis\`, a redis-server on
loopback), against the same call uncached to the mock, ${hits.rounds} rounds of ${hits.batch} calls; every hit is validated again as it is read back.

${timings(hits, 'contender ÷ no cache')}

A replayed dashboard day: ${count(day.calls)} calls on a simulated clock (${(86_400 / day.calls).toFixed(2)} s apart, so lifetimes run out as
over 24 h): Zipf-drawn journals (s = 1.1) for profiles (45 %) and score histories (20 %), the journal list (10 %),
searches over ten queries (10 %), journal papers (5 %), subjects and countries (10 %); ${day.webhooks} score changes at random
moments, each POSTed in-process to a receiver wired with \`client.cache\`. Requests without the cache: ${count(day.sentWithout)}; with
it: ${count(day.sentWith)}. Answers whose score differs from the mock's at the time: ${day.stale}. The replay with the cache took ${Math.round(day.ms)} ms.

The store checks of issue 21 on a memory hit: the identity check (every hit runs it) and the encoded-key check of the kept
entry (when an answer is kept; never on a hit), each in a tight loop beside ${checks.batch} hits, ${checks.rounds} rounds; the ratio is 1 + the check's cost ÷ the hit's.

${timings(checks, 'hit with it ÷ hit')}`;
  return { rows, text };
}
