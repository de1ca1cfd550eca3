// §11, the quota shared through Redis (src/redis through tsx, node-redis, a redis-server of its own),
// side by side on one redis-server: alone against one bare EVALSHA, rate-limiter-flexible and
// Bottleneck; through HTTP against one bare EVALSHA before each request; across processes.
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import { MetricClient } from '../src/index.js';
import { RedisQuota } from '../src/redis/redis-quota.js';
import { MOCK_API_KEY, startMockServer } from '../src/testing/index.js';
import { startRedisCluster } from '../test/helpers/redis-cluster.js';
import { redisServerBinary, startRedisServer } from '../test/helpers/redis-server.js';
import { atLeast, atMost, ms, type Row, range, table, us, verdict, x } from './format.js';
import { compare, pairedDifferences, pairedRatios, type Spread, scaled, spread } from './lib.js';
import { costOf, processes, processesConfig } from './redis-processes.js';

export const about = { id: '11', key: 'redisQuota', file: 'redis-quota.ts' } as const;

/** What each contender alone is, and what it promises beside its cost. */
const guarantees = {
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
} as const;
type AloneName = keyof typeof guarantees;
/** µs per call, ÷ one bare EVALSHA (paired), scripts sent per call, and Redis's own µs per call. */
type AloneFigures = { perCall: Spread; overEvalsha: Spread; roundTrips: number; redisUs: number };

const connect = (url: string) => createClient({ url }).connect();
type NodeRedis = Awaited<ReturnType<typeof connect>>;
const timing = { rounds: scaled(40, 4), batch: scaled(25, 5) };
const evalshaOn = async (redis: NodeRedis) => {
  const sha = String(await redis.scriptLoad('return {0, 0}'));
  return () => redis.evalSha(sha, { keys: ['bench-bare'], arguments: ['1'] });
};

/** Each contender alone, one call at a time, against one bare EVALSHA; and its cost inside Redis. */
async function alone(
  redisUrl: string,
  port: number,
  mockUrl: string,
  [redis, stats]: NodeRedis[],
  quota: RedisQuota,
) {
  const io = new Redis(redisUrl);
  const bottleneck = new Bottleneck({
    id: 'bench-bottleneck',
    datastore: 'ioredis',
    clearDatastore: true,
    clientOptions: { host: '127.0.0.1', port },
    maxConcurrent: 1_000_000,
    reservoir: 1_000_000_000,
  });
  await bottleneck.ready();
  try {
    const part = quota.forClient({ baseUrl: mockUrl, apiKey: MOCK_API_KEY });
    const flexible = new RateLimiterRedis({
      storeClient: io,
      keyPrefix: 'bench-rlf',
      points: 1e9,
      duration: 60,
    });
    const empty = async () => 0;
    const runs: Record<AloneName, () => Promise<unknown>> = {
      evalsha: await evalshaOn(redis!),
      quota: () => part.run(empty),
      rateLimiterFlexible: () => flexible.consume('key'),
      bottleneck: () => bottleneck.schedule(empty),
    };
    const contenders = Object.entries(runs).map(([name, run]) => ({ name, run }));
    const { samples } = await compare(contenders, { ...timing, warmup: scaled(100, 5) });
    const figures = {} as Record<AloneName, AloneFigures>;
    for (const [name, run] of Object.entries(runs) as Array<[AloneName, () => Promise<unknown>]>) {
      const [wall, cost] = [samples.get(name)!.wall, await costOf(stats!, scaled(500, 20), run)];
      const overEvalsha = spread(pairedRatios(wall, samples.get('evalsha')!.wall));
      figures[name] = { perCall: spread(wall), overEvalsha, ...cost };
    }
    return figures;
  } finally {
    await bottleneck.disconnect(false).catch(() => {});
    io.disconnect();
  }
}

/** `subjects.list()` with no quota, with the Redis quota, and with one bare EVALSHA before each request. */
async function throughHttp(mockUrl: string, redis: NodeRedis, stats: NodeRedis, quota: RedisQuota) {
  const options = { apiKey: MOCK_API_KEY, baseUrl: mockUrl, maxRetries: 0 };
  const evalsha = await evalshaOn(redis);
  const fetchAfterEvalsha: typeof fetch = async (input, init) => {
    await evalsha();
    return fetch(input, init);
  };
  const [plain, shared] = [new MetricClient(options), new MetricClient({ ...options, quota })];
  const withEvalsha = new MetricClient({ ...options, fetch: fetchAfterEvalsha });
  const http = [
    { name: 'no quota', run: () => plain.subjects.list() },
    { name: 'Redis quota', run: () => shared.subjects.list() },
    { name: 'bare EVALSHA', run: () => withEvalsha.subjects.list() },
  ];
  const { samples } = await compare(http, { ...timing, warmup: scaled(50, 5) });
  const [noQuota, withRedis, withBare] = http.map(({ name }) => samples.get(name)!.wall) as number[][];
  const added = spread(pairedDifferences(withRedis!, noQuota!));
  const addedByEvalsha = spread(pairedDifferences(withBare!, noQuota!));
  const scripts = (run: () => Promise<unknown>) =>
    costOf(stats, scaled(200, 20), run).then((c) => c.roundTrips);
  const windowOnly = new RedisQuota({ redis, maxRequestsPerMinute: 1e9, prefix: 'bench-window' });
  const commandsFree = await scripts(() => shared.subjects.list());
  const commandsFreeNoLeases = await scripts(() =>
    new MetricClient({ ...options, quota: windowOnly }).subjects.list(),
  );
  await windowOnly.close();
  return {
    noQuota: spread(noQuota!),
    redisQuota: spread(withRedis!),
    bareEvalsha: spread(withBare!),
    added,
    addedByEvalsha,
    addedOverEvalsha: added.median / addedByEvalsha.median,
    ratio: spread(pairedRatios(withRedis!, noQuota!)),
    /** Scripts per request with free places: with maxConcurrency, without. */
    commandsFree,
    commandsFreeNoLeases,
  };
}

/** `stats()`'s cost (wall time, scripts and Redis's time per call), and Redis's time per paced decision. */
async function fleetCosts(redis: NodeRedis, stats: NodeRedis, quota: RedisQuota, mockUrl: string) {
  const n = scaled(500, 20);
  const started = performance.now();
  const statsCost = await costOf(stats, n, () => quota.stats());
  const statsWallUs = ((performance.now() - started - 200) * 1000) / n;
  const paced = new RedisQuota({
    redis,
    maxRequestsPerMinute: 1e9,
    pacing: 'even',
    prefix: 'bench-paced-cost',
  });
  const part = paced.forClient({ baseUrl: mockUrl, apiKey: MOCK_API_KEY });
  const pacedCost = await costOf(stats, n, () => part.run(async () => 0));
  await paced.close();
  return { statsCost, statsWallUs, pacedDecisionUs: pacedCost.redisUs };
}

/** The processes again on a 3-master Redis Cluster (node-redis createCluster). */
async function onCluster() {
  const cluster = await startRedisCluster();
  try {
    return await processes(cluster.urls[0]!, undefined, {
      clusterUrls: cluster.urls,
      prefix: 'bench-cluster',
    });
  } finally {
    await cluster.close();
  }
}

async function measured(redisUrl: string, port: number) {
  const [redis, stats, mock] = [await connect(redisUrl), await connect(redisUrl), await startMockServer()];
  // Places always free: limits far above what one sequential loop can use.
  const free = new RedisQuota({
    redis,
    maxRequestsPerMinute: 1e9,
    maxConcurrency: 1e6,
    prefix: 'bench-free',
  });
  try {
    const aloneFigures = await alone(redisUrl, port, mock.url, [redis, stats], free);
    const http = await throughHttp(mock.url, redis, stats, free);
    const fleet = await fleetCosts(redis, stats, free, mock.url);
    await free.close();
    const burst = await processes(redisUrl, stats);
    const paced = await processes(redisUrl, stats, { pacing: 'even', prefix: 'bench-paced' });
    return { ...timing, alone: aloneFigures, ...http, ...burst, ...fleet, paced, cluster: await onCluster() };
  } finally {
    redis.destroy();
    stats.destroy();
    await mock.close();
  }
}

export async function measure() {
  if (redisServerBinary === undefined) return { skipped: 'redis-server is not installed' };
  const server = await startRedisServer();
  try {
    return await measured(server.url, server.port);
  } finally {
    await server.close();
  }
}

type RedisQuotaResult = Awaited<ReturnType<typeof measure>>;
type Measured = Awaited<ReturnType<typeof measured>>;

function redisRows(r: Measured): Row[] {
  const { demand, limit, windowMs } = processesConfig;
  const alone = `${x(r.alone.quota.overEvalsha.median)}; ${r.alone.quota.roundTrips.toFixed(2)} scripts per call`;
  const added = `${x(r.addedOverEvalsha)} (${us(r.added.median)} ÷ ${us(r.addedByEvalsha.median)})`;
  const achieved = `${x(r.achievedOverLimit)}, ${r.tooMany} 429s, ${r.failed} failed`;
  const processes = `${r.processes} processes, demand ${demand}× the mock's limit of ${limit} per ${windowMs} ms`;
  return [
    atMost(
      'the Redis quota alone (free places) ÷ one bare EVALSHA round trip, paired',
      alone,
      r.alone.quota.overEvalsha.median,
      2,
      x(2),
    ),
    atMost(
      'one request on loopback: what the quota adds ÷ what one bare EVALSHA before it adds',
      added,
      r.addedOverEvalsha,
      1.5,
    ),
    {
      ...atLeast(
        `${processes}: achieved rate ÷ limit, 429s`,
        achieved,
        r.achievedOverLimit,
        0.95,
        `${x(0.95)}, 0 429s`,
      ),
      met: r.achievedOverLimit >= 0.95 && r.tooMany === 0 && r.failed === 0,
    },
    processesRow(`${processes}, pacing: 'even'`, r.paced),
    processesRow(`${processes}, on a 3-master Redis Cluster`, r.cluster),
  ];
}

type ProcessesFigures = Awaited<ReturnType<typeof processes>>;

/** A run of processes: rate ÷ limit ≥ 0.95 with 0 429s and no failure; the longest gap beside. */
function processesRow(what: string, f: ProcessesFigures): Row {
  const figure = `${x(f.achievedOverLimit)}, ${f.tooMany} 429s, ${f.failed} failed, longest gap ${ms(f.longestGapMs)}`;
  return {
    ...atLeast(
      `${what}: achieved rate ÷ limit, 429s`,
      figure,
      f.achievedOverLimit,
      0.95,
      `${x(0.95)}, 0 429s`,
    ),
    met: f.achievedOverLimit >= 0.95 && f.tooMany === 0 && f.failed === 0,
  };
}

function redisText(r: Measured): string {
  const [aloneMet, addedMet, achievedMet, pacedMet, clusterMet] = redisRows(r).map((row) =>
    verdict(row.met!),
  );
  const c = processesConfig;
  const alone = table(
    ['contender', 'per call', '÷ EVALSHA', 'scripts per call', 'Redis’s time per call', 'what it guarantees'],
    (Object.keys(r.alone) as AloneName[]).map((name) => {
      const f = r.alone[name];
      const [what, promise] = guarantees[name];
      const redisUs = `${f.redisUs.toFixed(1)} µs`;
      return [what, range(f.perCall, us), x(f.overEvalsha.median), f.roundTrips.toFixed(2), redisUs, promise];
    }),
  );
  return `## 11. One quota across processes (Redis)

bench/redis-quota.ts: src/redis through tsx, node-redis (ioredis for the references that need it), one
redis-server of its own on 127.0.0.1, the mock server over real HTTP. \`npx tsx bench/child.ts redis-quota.ts\`
runs this part alone and prints its figures as JSON.

- **Alone**, one call at a time, ${r.rounds} rounds of ${r.batch}, the contenders interleaved round by round on one
  redis-server. Redis's time per call is what INFO commandstats counts for the scripts (the commands they run
  inside Redis included), over 500 calls each. Target for the quota ≤ 2.00× one EVALSHA: ${aloneMet}.

${alone}

- **Through HTTP**, \`subjects.list()\` one at a time against the mock: no quota ${range(r.noQuota, us)}, the Redis
  quota ${range(r.redisQuota, us)}, one bare EVALSHA before each request ${range(r.bareEvalsha, us)}. Paired round by
  round, the quota adds ${range(r.added, us)} and one EVALSHA adds ${range(r.addedByEvalsha, us)}: ${x(r.addedOverEvalsha)}.
  Target ≤ 1.50×: ${addedMet}.
- **Scripts per request** with free places: ${r.commandsFree.toFixed(2)} with \`maxConcurrency\`, ${r.commandsFreeNoLeases.toFixed(2)} without.
  The end of a request (its lease given back, its start counted from its answer) rides on the next start of
  the process; the last goes after a short idle or with \`quota.close()\`. While requests wait (the processes
  below): ${r.commandsWaiting.toFixed(1)} per request.
- **${r.processes} processes**, each its own node-redis client and quota over one key, offering ${c.demand}× the
  mock's window limit (${c.limit} requests per ${c.windowMs} ms, the quota set to the same) for ${ms(r.offeredMs)}:
  ${r.requests} requests, ${r.tooMany} answered 429, ${r.failed} failed. Achieved rate ÷ limit ${x(r.achievedOverLimit)} (the
  whole windows ${r.requests} requests need at the limit, over the time from the first arrival to the last).
  Target ≥ 0.95× with 0 429s: ${achievedMet}. Longest wait per process:
  ${r.longestWaitMs.map((n) => ms(n)).join(', ')}. Longest gap between two arrivals: ${ms(r.longestGapMs)}.
- **The same with \`pacing: 'even'\`**: ${r.paced.requests} requests, ${r.paced.tooMany} answered 429, ${r.paced.failed} failed;
  achieved rate ÷ limit ${x(r.paced.achievedOverLimit)}; longest gap between two arrivals ${ms(r.paced.longestGapMs)}
  (the spacing is ${ms(c.windowMs / c.limit)}). Target ≥ 0.95× with 0 429s: ${pacedMet}.
- **The same on a 3-master Redis Cluster** (node-redis \`createCluster\`): ${r.cluster.requests} requests,
  ${r.cluster.tooMany} answered 429, ${r.cluster.failed} failed; achieved rate ÷ limit ${x(r.cluster.achievedOverLimit)};
  longest gap ${ms(r.cluster.longestGapMs)}. Target ≥ 0.95× with 0 429s: ${clusterMet}.
- **\`stats()\`**: ${us(r.statsWallUs)} per call one at a time, ${r.statsCost.roundTrips.toFixed(2)} scripts per call,
  ${r.statsCost.redisUs.toFixed(1)} µs of Redis's time. **Redis's time per decision** (the acquire script with free
  places): ${r.alone.quota.redisUs.toFixed(1)} µs; paced (\`pacing: 'even'\`): ${r.pacedDecisionUs.toFixed(1)} µs.`;
}

export const rows = (r: RedisQuotaResult): Row[] =>
  'skipped' in r
    ? [{ what: 'the quota shared through Redis', figure: `not measured: ${r.skipped}`, target: '' }]
    : redisRows(r);

export const text = (r: RedisQuotaResult) => ('skipped' in r ? '' : redisText(r));
