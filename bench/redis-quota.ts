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
import { redisServerBinary, startRedisServer } from '../test/helpers/redis-server.js';
import { ms, type Row, range, table, us, verdict, x } from './format.js';
import { compare, pairedDifferences, pairedRatios, type Spread, scaled, spread } from './lib.js';
import { costOf, processes, processesConfig } from './redis-processes.js';

export const about = { id: '11', key: 'redisQuota', file: 'redis-quota.ts' } as const;

const targets = { aloneOverEvalsha: 2.0, addedOverEvalsha: 1.5, achieved: 0.95 };

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

async function measured(redisUrl: string, port: number) {
  const redis = await createClient({ url: redisUrl }).connect();
  const stats = await createClient({ url: redisUrl }).connect();
  const io = new Redis(redisUrl);
  const mock = await startMockServer();
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
    // Places always free: limits far above what one sequential loop can use.
    const free = new RedisQuota({
      redis,
      maxRequestsPerMinute: 1e9,
      maxConcurrency: 1e6,
      prefix: 'bench-free',
    });
    const part = free.forClient({ baseUrl: mock.url, apiKey: MOCK_API_KEY });
    const sha = String(await redis.scriptLoad('return {0, 0}'));
    const evalsha = () => redis.evalSha(sha, { keys: ['bench-bare'], arguments: ['1'] });
    const flexible = new RateLimiterRedis({
      storeClient: io,
      keyPrefix: 'bench-rlf',
      points: 1e9,
      duration: 60,
    });
    const empty = async () => 0;
    const runs: Record<AloneName, () => Promise<unknown>> = {
      evalsha,
      quota: () => part.run(empty),
      rateLimiterFlexible: () => flexible.consume('key'),
      bottleneck: () => bottleneck.schedule(empty),
    };
    const [rounds, batch] = [scaled(40, 4), scaled(25, 5)];
    const contenders = Object.entries(runs).map(([name, run]) => ({ name, run }));
    const { samples: alone } = await compare(contenders, { rounds, batch, warmup: scaled(100, 5) });
    const aloneFigures = {} as Record<AloneName, AloneFigures>;
    for (const [name, run] of Object.entries(runs) as Array<[AloneName, () => Promise<unknown>]>) {
      const wall = alone.get(name)!.wall;
      const overEvalsha = spread(pairedRatios(wall, alone.get('evalsha')!.wall));
      aloneFigures[name] = {
        perCall: spread(wall),
        overEvalsha,
        ...(await costOf(stats, scaled(500, 20), run)),
      };
    }

    const options = { apiKey: MOCK_API_KEY, baseUrl: mock.url, maxRetries: 0 };
    const plain = new MetricClient(options);
    const shared = new MetricClient({ ...options, quota: free });
    const fetchAfterEvalsha: typeof fetch = async (input, init) => {
      await evalsha();
      return fetch(input, init);
    };
    const withEvalsha = new MetricClient({ ...options, fetch: fetchAfterEvalsha });
    const http = [
      { name: 'no quota', run: () => plain.subjects.list() },
      { name: 'Redis quota', run: () => shared.subjects.list() },
      { name: 'bare EVALSHA', run: () => withEvalsha.subjects.list() },
    ];
    const { samples } = await compare(http, { rounds, batch, warmup: scaled(50, 5) });
    const [noQuota, withRedis, withBare] = http.map(({ name }) => samples.get(name)!.wall) as [
      number[],
      number[],
      number[],
    ];
    const added = spread(pairedDifferences(withRedis, noQuota));
    const addedByEvalsha = spread(pairedDifferences(withBare, noQuota));

    const commandsFree = (await costOf(stats, scaled(200, 20), () => shared.subjects.list())).roundTrips;
    const windowOnly = new RedisQuota({ redis, maxRequestsPerMinute: 1e9, prefix: 'bench-window' });
    const noLeases = () => new MetricClient({ ...options, quota: windowOnly }).subjects.list();
    const commandsFreeNoLeases = (await costOf(stats, scaled(200, 20), noLeases)).roundTrips;
    await free.close();
    await windowOnly.close();
    return {
      rounds,
      batch,
      alone: aloneFigures,
      noQuota: spread(noQuota),
      redisQuota: spread(withRedis),
      bareEvalsha: spread(withBare),
      added,
      addedByEvalsha,
      addedOverEvalsha: added.median / addedByEvalsha.median,
      ratio: spread(pairedRatios(withRedis, noQuota)),
      /** Scripts per request with free places: with maxConcurrency, without. */
      commandsFree,
      commandsFreeNoLeases,
      ...(await processes(redisUrl, stats)),
    };
  } finally {
    await bottleneck.disconnect(false).catch(() => {});
    io.disconnect();
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

function verdicts(r: Measured) {
  return {
    alone: r.alone.quota.overEvalsha.median <= targets.aloneOverEvalsha,
    added: r.addedOverEvalsha <= targets.addedOverEvalsha,
    achieved: r.achievedOverLimit >= targets.achieved && r.tooMany === 0 && r.failed === 0,
  };
}

function redisRows(r: Measured): Row[] {
  const met = verdicts(r);
  const c = processesConfig;
  return [
    {
      what: 'the Redis quota alone (free places) ÷ one bare EVALSHA round trip, paired',
      figure: `${x(r.alone.quota.overEvalsha.median)}; ${r.alone.quota.roundTrips.toFixed(2)} scripts per call`,
      target: `≤ ${x(targets.aloneOverEvalsha)}`,
      met: met.alone,
    },
    {
      what: 'one request on loopback: what the quota adds ÷ what one bare EVALSHA before it adds',
      figure: `${x(r.addedOverEvalsha)} (${us(r.added.median)} ÷ ${us(r.addedByEvalsha.median)})`,
      target: `≤ ${x(targets.addedOverEvalsha)}`,
      met: met.added,
    },
    {
      what: `${r.processes} processes, demand ${c.demand}× the mock's limit of ${c.limit} per ${c.windowMs} ms: achieved rate ÷ limit, 429s`,
      figure: `${x(r.achievedOverLimit)}, ${r.tooMany} 429s, ${r.failed} failed`,
      target: `≥ ${x(targets.achieved)}, 0 429s`,
      met: met.achieved,
    },
  ];
}

function redisText(r: Measured): string {
  const met = verdicts(r);
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
  inside Redis included), over 500 calls each. Target for the quota ≤ ${x(targets.aloneOverEvalsha)} one EVALSHA: ${verdict(met.alone)}.

${alone}

- **Through HTTP**, \`subjects.list()\` one at a time against the mock: no quota ${range(r.noQuota, us)}, the Redis
  quota ${range(r.redisQuota, us)}, one bare EVALSHA before each request ${range(r.bareEvalsha, us)}. Paired round by
  round, the quota adds ${range(r.added, us)} and one EVALSHA adds ${range(r.addedByEvalsha, us)}: ${x(r.addedOverEvalsha)}.
  Target ≤ ${x(targets.addedOverEvalsha)}: ${verdict(met.added)}.
- **Scripts per request** with free places: ${r.commandsFree.toFixed(2)} with \`maxConcurrency\`, ${r.commandsFreeNoLeases.toFixed(2)} without.
  The end of a request (its lease given back, its start counted from its answer) rides on the next start of
  the process; the last goes after a short idle or with \`quota.close()\`. While requests wait (the processes
  below): ${r.commandsWaiting.toFixed(1)} per request.
- **${r.processes} processes**, each its own node-redis client and quota over one key, offering ${c.demand}× the
  mock's window limit (${c.limit} requests per ${c.windowMs} ms, the quota set to the same) for ${ms(r.offeredMs)}:
  ${r.requests} requests, ${r.tooMany} answered 429, ${r.failed} failed. Achieved rate ÷ limit ${x(r.achievedOverLimit)} (the
  whole windows ${r.requests} requests need at the limit, over the time from the first arrival to the last).
  Target ≥ ${x(targets.achieved)} with 0 429s: ${verdict(met.achieved)}. Longest wait per process:
  ${r.longestWaitMs.map((n) => ms(n)).join(', ')}.`;
}

export const rows = (r: RedisQuotaResult): Row[] =>
  'skipped' in r
    ? [{ what: 'the quota shared through Redis', figure: `not measured: ${r.skipped}`, target: '' }]
    : redisRows(r);

export const text = (r: RedisQuotaResult) => ('skipped' in r ? '' : redisText(r));
