// §11, the Redis quota against one bare EVALSHA, rate-limiter-flexible and Bottleneck; across processes.
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import { MetricClient } from '../src/index.js';
import { RedisQuota } from '../src/redis/redis-quota.js';
import { MOCK_API_KEY, startMockServer } from '../src/testing/index.js';
import { startRedisCluster } from '../test/helpers/redis-cluster.js';
import { redisServerBinary, startRedisServer } from '../test/helpers/redis-server.js';
import { atLeast, atMost, ms, type Row, range, table, us, x } from './format.js';
import { compare, paired, pairedDifferences, type Spread, scaled } from './lib.js';
import { costOf, processes, processesConfig } from './redis-processes.js';
import type { Report, Results } from './report.js';

const title = 'One quota across processes (Redis)';
export const about = { id: '11', key: 'redisQuota', file: 'redis-quota.ts', title };

/** What each contender alone is, and what it promises beside its cost. */
const guarantees: Record<AloneName, [string, string]> = {
  evalsha: ['one bare `EVALSHA` (`return {0, 0}`), the floor', 'none: it limits nothing'],
  quota: [
    '`createRedisQuota` `run` (free places)',
    'exact sliding windows (minute, day); requests in flight across processes, as leases; a fair line; a 429 pauses, a daily 429 blocks every process',
  ],
  rateLimiterFlexible: [
    'rate-limiter-flexible `RateLimiterRedis.consume`',
    'a fixed window (up to 2× the limit across a boundary); no concurrency across processes, no leases, no line, no shared 429 pause',
  ],
  bottleneck: [
    'Bottleneck, Redis clustering (`schedule`)',
    'a reservoir refreshed on a timer, not a sliding window; `maxConcurrent` across processes, with job expiration as leases; no shared 429 pause or daily block',
  ],
};
type AloneName = 'evalsha' | 'quota' | 'rateLimiterFlexible' | 'bottleneck';

const connect = (url: string) => createClient({ url }).connect();
type NodeRedis = Awaited<ReturnType<typeof connect>>;
const timing = { rounds: scaled(40, 4), batch: scaled(25, 5) };
/** Calls per contender over which Redis's INFO commandstats is read. */
const costCalls = scaled(500, 20);
const evalshaOn = async (redis: NodeRedis) => {
  const sha = String(await redis.scriptLoad('return {0, 0}'));
  return () => redis.evalSha(sha, { keys: ['bench-bare'], arguments: ['1'] });
};
/** A quota on `redis` with limits far above what one sequential loop can use: places always free. */
const freeQuota = (redis: NodeRedis, prefix: string, more: object = {}) =>
  new RedisQuota({ redis, maxRequestsPerMinute: 1e9, prefix, ...more });
type Clients = Record<'redis' | 'stats', NodeRedis>;
type Setup = Clients & { redisUrl: string; port: number; mockUrl: string; quota: RedisQuota };

/** Each contender alone, one call at a time, against one bare EVALSHA; and its cost inside Redis. */
async function alone({ redisUrl, port, mockUrl, redis, stats, quota }: Setup) {
  const io = new Redis(redisUrl);
  const store = { datastore: 'ioredis', clearDatastore: true, clientOptions: { host: '127.0.0.1', port } };
  const bottleneck = new Bottleneck({ id: 'bench-bottleneck', maxConcurrent: 1e6, reservoir: 1e9, ...store });
  await bottleneck.ready();
  try {
    const part = quota.forClient({ baseUrl: mockUrl, apiKey: MOCK_API_KEY });
    const points = { points: 1e9, duration: 60 };
    const flexible = new RateLimiterRedis({ storeClient: io, keyPrefix: 'bench-rlf', ...points });
    const empty = async () => 0;
    const runs: Record<AloneName, () => Promise<unknown>> = {
      evalsha: await evalshaOn(redis),
      quota: () => part.run(empty),
      rateLimiterFlexible: () => flexible.consume('key'),
      bottleneck: () => bottleneck.schedule(empty),
    };
    const pairs = Object.keys(runs).map((name) => [name, 'evalsha'] as const);
    const { contenders, ratios } = await compare(runs, { ...timing, warmup: scaled(100, 5) }, pairs);
    type Figures = { perCall: Spread; overEvalsha: Spread; roundTrips: number; redisUs: number };
    const figures = {} as Record<AloneName, Figures>;
    for (const [n, { name, wall }] of contenders.entries()) {
      const cost = await costOf(stats, costCalls, runs[name as AloneName]);
      figures[name as AloneName] = { perCall: wall, overEvalsha: ratios[n]!.wall, ...cost };
    }
    return figures;
  } finally {
    await bottleneck.disconnect(false).catch(() => {});
    io.disconnect();
  }
}

/** `subjects.list()` with no quota, with the Redis quota, and with one bare EVALSHA before each request. */
async function throughHttp({ mockUrl, redis, stats, quota }: Setup) {
  const options = { apiKey: MOCK_API_KEY, baseUrl: mockUrl, maxRetries: 0 };
  const evalsha = await evalshaOn(redis);
  const fetchAfterEvalsha: typeof fetch = (input, init) => evalsha().then(() => fetch(input, init));
  const clients = [{}, { quota }, { fetch: fetchAfterEvalsha }].map(
    (more) => new MetricClient({ ...options, ...more }),
  );
  const names = ['no quota', 'Redis quota', 'bare EVALSHA'];
  const http = Object.fromEntries(names.map((name, n) => [name, () => clients[n]!.subjects.list()]));
  const { samples, contenders } = await compare(http, { ...timing, warmup: scaled(50, 5) });
  const addedTo = (name: string) => paired(samples, name, 'no quota', pairedDifferences).wall;
  const [added, addedByEvalsha] = [addedTo('Redis quota'), addedTo('bare EVALSHA')];
  const scripts = (client: MetricClient) =>
    costOf(stats, scaled(200, 20), () => client.subjects.list()).then((c) => c.roundTrips);
  const windowOnly = freeQuota(redis, 'bench-window');
  const commandsFree = await scripts(clients[1]!);
  const commandsFreeNoLeases = await scripts(new MetricClient({ ...options, quota: windowOnly }));
  await windowOnly.close();
  const addedOverEvalsha = added.median / addedByEvalsha.median;
  const [noQuota, redisQuota, bareEvalsha] = contenders.map((c) => c.wall) as [Spread, Spread, Spread];
  const times = { noQuota, redisQuota, bareEvalsha };
  // Scripts per request with free places: with maxConcurrency, without.
  return { ...times, added, addedByEvalsha, addedOverEvalsha, commandsFree, commandsFreeNoLeases };
}

/** `stats()`'s cost (wall time, scripts and Redis's time per call), and Redis's time per paced decision. */
async function fleetCosts({ redis, stats, quota, mockUrl }: Setup) {
  const n = costCalls;
  const started = performance.now();
  const statsCost = await costOf(stats, n, () => quota.stats());
  // costOf waits twice 100 ms for earlier scripts to land.
  const statsWallUs = ((performance.now() - started - 200) * 1000) / n;
  const paced = freeQuota(redis, 'bench-paced-cost', { pacing: 'even' });
  const part = paced.forClient({ baseUrl: mockUrl, apiKey: MOCK_API_KEY });
  const pacedCost = await costOf(stats, n, () => part.run(async () => 0));
  await paced.close();
  return { statsCost, statsWallUs, pacedDecisionUs: pacedCost.redisUs };
}

/** The processes: bursting, paced evenly (over `pacedMs` at the limit), and on a 3-master Redis Cluster. */
async function fleets(redisUrl: string, stats: NodeRedis) {
  const burst = await processes(redisUrl, stats);
  const pacedMs = processesConfig.pacedMs / processesConfig.demand;
  const paced = await processes(redisUrl, stats, { pacing: 'even', prefix: 'bench-paced' }, pacedMs);
  const cluster = await startRedisCluster();
  try {
    const onCluster = { clusterUrls: cluster.urls, prefix: 'bench-cluster' };
    return { ...burst, paced, cluster: await processes(cluster.urls[0]!, undefined, onCluster) };
  } finally {
    await cluster.close();
  }
}

export async function measure() {
  if (redisServerBinary === undefined) return { skipped: 'redis-server is not installed' };
  const server = await startRedisServer();
  const { url, port } = server;
  const [redis, stats, mock] = [await connect(url), await connect(url), await startMockServer()];
  const quota = freeQuota(redis, 'bench-free', { maxConcurrency: 1e6 });
  const setup = { redisUrl: url, port, mockUrl: mock.url, redis, stats, quota };
  try {
    const aloneFigures = await alone(setup);
    const [http, fleet] = [await throughHttp(setup), await fleetCosts(setup)];
    await quota.close();
    return { ...timing, costCalls, alone: aloneFigures, ...http, ...fleet, ...(await fleets(url, stats)) };
  } finally {
    redis.destroy();
    stats.destroy();
    await mock.close();
    await server.close();
  }
}

type Measured = Exclude<Results['redisQuota'], { skipped: string }>;
type Run = Awaited<ReturnType<typeof processes>>;

/** A run of processes: rate ÷ limit at least `limit`, 0 429s and no failure; the longest gaps beside. */
function processesRow(what: string, f: Run, limit: number, gaps = true): Row {
  const gap = gaps ? `, longest gap ${ms(f.longestGapMs)}, between starts ${ms(f.longestStartGapMs)}` : '';
  const figure = `${x(f.achievedOverLimit)}, ${f.tooMany} 429s, ${f.failed} failed${gap}`;
  const [judged, shown] = [`${what}: achieved rate ÷ limit, 429s`, `${x(limit)}, 0 429s`];
  return atLeast(judged, figure, f.achievedOverLimit, limit, shown, f.tooMany === 0 && f.failed === 0);
}

function redisRows(r: Measured): Row[] {
  const { demand, limit, windowMs } = processesConfig;
  const alone = `${x(r.alone.quota.overEvalsha.median)}; ${r.alone.quota.roundTrips.toFixed(2)} scripts per call`;
  const added = `${x(r.addedOverEvalsha)} (${us(r.added.median)} ÷ ${us(r.addedByEvalsha.median)})`;
  const processes = `${r.processes} processes, demand ${demand}× the mock's limit of ${limit} per ${windowMs} ms`;
  const pacedS = (r.paced.offeredMs * demand) / 1000;
  const aloneWhat = 'the Redis quota alone (free places) ÷ one bare EVALSHA round trip, paired';
  const addedWhat = 'one request on loopback: what the quota adds ÷ what one bare EVALSHA before it adds';
  return [
    atMost(aloneWhat, alone, r.alone.quota.overEvalsha.median, 2),
    atMost(addedWhat, added, r.addedOverEvalsha, 1.5),
    processesRow(processes, r, 0.95, false),
    processesRow(`${processes}, pacing: 'even', ${pacedS} s at the limit`, r.paced, 0.97),
    processesRow(`${processes}, on a 3-master Redis Cluster`, r.cluster, 0.95),
  ];
}

function redisText(r: Measured): string {
  const [{ paced, cluster }, c] = [r, processesConfig];
  const run = (f: Run) =>
    `${f.requests} requests, ${f.tooMany} answered 429, ${f.failed} failed; achieved rate ÷ limit ${x(f.achievedOverLimit)}`;
  const alone = table(
    ['contender', 'per call', '÷ EVALSHA', 'scripts per call', 'Redis’s time per call', 'what it guarantees'],
    (Object.keys(r.alone) as AloneName[]).map((name) => {
      const [f, [what, promise]] = [r.alone[name], guarantees[name]];
      const cells = [range(f.perCall, us), x(f.overEvalsha.median), f.roundTrips.toFixed(2)];
      return [what, ...cells, `${f.redisUs.toFixed(1)} µs`, promise];
    }),
  );
  return `bench/redis-quota.ts: src/redis through tsx, node-redis (ioredis where a reference needs it), one redis-server of
its own on 127.0.0.1, the mock over real HTTP (\`npx tsx bench/child.ts redis-quota.ts\` runs it alone).

- **Alone**, one call at a time, ${r.rounds} rounds of ${r.batch}, interleaved on one redis-server; Redis's time per call is
  INFO commandstats for the scripts, over ${r.costCalls} calls each.

${alone}

- **Through HTTP**, \`subjects.list()\` one at a time: no quota ${range(r.noQuota, us)}, the Redis quota ${range(r.redisQuota, us)},
  one bare EVALSHA before each request ${range(r.bareEvalsha, us)}. Paired, the quota adds ${range(r.added, us)}, one
  EVALSHA ${range(r.addedByEvalsha, us)}: ${x(r.addedOverEvalsha)}.
- **Scripts per request** with free places: ${r.commandsFree.toFixed(2)} with \`maxConcurrency\`, ${r.commandsFreeNoLeases.toFixed(2)} without (a request's
  end rides on the process's next start, the last after a short idle or \`quota.close()\`); while requests wait
  (below): ${r.commandsWaiting.toFixed(1)} per request.
- **${r.processes} processes**, each its own node-redis client and quota over one key, offering ${c.demand}× the mock's
  limit (${c.limit} per ${c.windowMs} ms, the quota the same) for ${ms(r.offeredMs)}: ${run(r)} (the whole windows
  the requests need at the limit ÷ the time from the first arrival to the last). Longest wait per process: ${r.longestWaitMs.map((n) => ms(n)).join(', ')}. Longest gap between two
  arrivals: ${ms(r.longestGapMs)}.
- **\`pacing: 'even'\`**, the same demand offered for ${ms(paced.offeredMs)} over ${(paced.spanMs / 1000).toFixed(0)} s of arrivals: ${run(paced)}; longest gap
  between two arrivals ${ms(paced.longestGapMs)}, between two starts ${ms(paced.longestStartGapMs)} (the spacing is ${ms(c.windowMs / c.limit)}).
- **On a 3-master Redis Cluster** (node-redis \`createCluster\`): ${run(cluster)}; longest gap ${ms(cluster.longestGapMs)}.
- **\`stats()\`**: ${us(r.statsWallUs)} per call, ${r.statsCost.roundTrips.toFixed(2)} scripts per call, ${r.statsCost.redisUs.toFixed(1)} µs of Redis's time.
  **Redis's time per decision** (free places): ${r.alone.quota.redisUs.toFixed(1)} µs; paced: ${r.pacedDecisionUs.toFixed(1)} µs.`;
}

export const report = (r: Results['redisQuota']): Report =>
  'skipped' in r
    ? { rows: [{ what: 'the quota shared through Redis', figure: `not measured: ${r.skipped}`, target: '' }] }
    : { rows: redisRows(r), text: redisText(r) };
