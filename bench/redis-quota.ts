/**
 * 11. The quota shared through Redis (src/redis through tsx, node-redis, a redis-server of its own on
 * loopback, the mock server over real HTTP), side by side in one run on one redis-server:
 * - alone: `run` around an empty function, one call at a time, against one bare `EVALSHA` round trip,
 *   rate-limiter-flexible's `RateLimiterRedis.consume` and Bottleneck's Redis clustering (`schedule`);
 * - through HTTP: what the quota adds to a request against what one bare `EVALSHA` before it adds;
 * - Redis's own time per request (the scripts' run inside Redis, from INFO commandstats), and the round
 *   trips per request;
 * - worker processes whose demand is a multiple of the mock's window limit: the rate achieved against
 *   the limit, the 429s, the longest wait in each process.
 * `npx tsx bench/redis-quota.ts` runs this part alone and prints its figures as JSON.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createClient } from 'redis';
import { MetricClient } from '../src/index.js';
import { RedisQuota } from '../src/redis/redis-quota.js';
import { MOCK_API_KEY, startMockServer } from '../src/testing/index.js';
import { startInFlightMockServer } from '../test/helpers/in-flight-mock.js';
import { redisServerBinary, startRedisServer } from '../test/helpers/redis-server.js';
import type { WorkerReport, WorkerSettings } from '../test/redis/quota-worker.js';
import { interleave, pairedRatios, report, type Spread, spread } from './lib.js';
import { redisQuotaConfig } from './redis-quota-config.js';

/** One contender timed alone, µs per call, and what it costs inside Redis. */
export interface AloneFigures {
  readonly perCall: Spread;
  /** This ÷ one bare EVALSHA, paired round by round. */
  readonly overEvalsha: Spread;
  /** Round trips to Redis per call (commands sent, not those a script runs inside Redis). */
  readonly roundTrips: number;
  /** Redis's own time per call, µs (INFO commandstats, the scripts' inner commands included). */
  readonly redisUs: number;
}

export interface RedisQuotaResult {
  /** Why nothing was measured (no redis-server), if so. */
  skipped?: string;
  rounds: number;
  batch: number;
  alone: {
    evalsha: AloneFigures;
    quota: AloneFigures;
    rateLimiterFlexible: AloneFigures;
    bottleneck: AloneFigures;
  };
  /** Per request through HTTP, µs. */
  noQuota: Spread;
  redisQuota: Spread;
  bareEvalsha: Spread;
  /** What the quota, and one bare EVALSHA, add per request, paired round by round, µs. */
  added: Spread;
  addedByEvalsha: Spread;
  /** Median added by the quota ÷ median added by one EVALSHA. */
  addedOverEvalsha: number;
  ratio: Spread;
  /** Redis round trips per request with free places: with maxConcurrency, without. */
  commandsFree: number;
  commandsFreeNoLeases: number;
  /** Across processes. */
  processes: number;
  requests: number;
  achievedOverLimit: number;
  tooMany: number;
  failed: number;
  longestWaitMs: number[];
  /** Redis round trips per request across the processes, waiting included. */
  commandsWaiting: number;
}

const worker = fileURLToPath(new URL('../test/redis/quota-worker.ts', import.meta.url));

interface CommandStats {
  /** Scripts run (EVALSHA and EVAL): every contender here talks to Redis through scripts alone. */
  readonly scripts: number;
  /** Redis's own time on them, µs, the commands they run inside Redis included. */
  readonly usec: number;
}

async function commandStats(redis: { info(section: string): Promise<string> }): Promise<CommandStats> {
  const info = await redis.info('commandstats');
  let scripts = 0;
  let usec = 0;
  for (const [, calls, time] of info.matchAll(/^cmdstat_eval(?:sha)?(?:_ro)?:calls=(\d+),usec=(\d+)/gm)) {
    scripts += Number(calls);
    usec += Number(time);
  }
  return { scripts, usec };
}

/** Scripts per call and Redis's time per call, over `n` calls of `run`, one at a time. */
async function costOf(
  redis: { info(section: string): Promise<string> },
  n: number,
  run: () => Promise<unknown>,
): Promise<{ roundTrips: number; redisUs: number }> {
  // Let what an earlier contender left (an end sent after a short idle) land first.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = await commandStats(redis);
  for (let i = 0; i < n; i++) await run();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = await commandStats(redis);
  return { roundTrips: (after.scripts - before.scripts) / n, redisUs: (after.usec - before.usec) / n };
}

function runWorker(settings: WorkerSettings): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], {
      env: { ...process.env, QUOTA_WORKER: JSON.stringify(settings) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'));
      else reject(new Error(`worker exited with ${code}`));
    });
  });
}

async function main(): Promise<RedisQuotaResult | { skipped: string }> {
  if (redisServerBinary === undefined) return { skipped: 'redis-server is not installed' };
  const server = await startRedisServer();
  const redis = await createClient({ url: server.url }).connect();
  const stats = await createClient({ url: server.url }).connect();
  const io = new Redis(server.url);
  const mock = await startMockServer();
  const bottleneck = new Bottleneck({
    id: 'bench-bottleneck',
    datastore: 'ioredis',
    clearDatastore: true,
    clientOptions: { host: '127.0.0.1', port: server.port },
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
    const bare = { source: 'return {0, 0}', sha: '' };
    bare.sha = String(await redis.scriptLoad(bare.source));
    const evalsha = () => redis.evalSha(bare.sha, { keys: ['bench-bare'], arguments: ['1'] });
    const flexible = new RateLimiterRedis({
      storeClient: io,
      keyPrefix: 'bench-rlf',
      points: 1_000_000_000,
      duration: 60,
    });
    const empty = async () => 0;
    const contenders = {
      evalsha,
      quota: () => part.run(empty),
      rateLimiterFlexible: () => flexible.consume('key'),
      bottleneck: () => bottleneck.schedule(empty),
    } as const;
    const rounds = 40;
    const batch = 25;
    const alone = await interleave(
      Object.entries(contenders).map(([name, run]) => ({ name, run })),
      { rounds, batch, warmup: 100 },
    );
    const evalshaWall = alone.get('evalsha')!.wall;
    const aloneFigures = {} as Record<keyof typeof contenders, AloneFigures>;
    for (const [name, run] of Object.entries(contenders) as [
      keyof typeof contenders,
      () => Promise<unknown>,
    ][]) {
      const wall = alone.get(name)!.wall;
      const cost = await costOf(stats, 500, run);
      aloneFigures[name] = {
        perCall: spread(wall),
        overEvalsha: spread(pairedRatios(wall, evalshaWall)),
        ...cost,
      };
    }

    const options = { apiKey: MOCK_API_KEY, baseUrl: mock.url, maxRetries: 0 };
    const plain = new MetricClient(options);
    const shared = new MetricClient({ ...options, quota: free });
    const withEvalsha = new MetricClient({
      ...options,
      fetch: async (input, init) => {
        await evalsha();
        return fetch(input, init);
      },
    });
    const samples = await interleave(
      [
        { name: 'no quota', run: () => plain.subjects.list() },
        { name: 'Redis quota', run: () => shared.subjects.list() },
        { name: 'bare EVALSHA', run: () => withEvalsha.subjects.list() },
      ],
      { rounds, batch, warmup: 50 },
    );
    const noQuota = samples.get('no quota')!.wall;
    const withRedis = samples.get('Redis quota')!.wall;
    const withBare = samples.get('bare EVALSHA')!.wall;
    const added = spread(withRedis.map((value, i) => value - noQuota[i]!));
    const addedByEvalsha = spread(withBare.map((value, i) => value - noQuota[i]!));

    const commandsFree = (await costOf(stats, 200, () => shared.subjects.list())).roundTrips;
    const windowOnly = new RedisQuota({ redis, maxRequestsPerMinute: 1e9, prefix: 'bench-window' });
    const commandsFreeNoLeases = (
      await costOf(stats, 200, () => new MetricClient({ ...options, quota: windowOnly }).subjects.list())
    ).roundTrips;
    await (free as { close?: () => Promise<void> }).close?.();
    await (windowOnly as { close?: () => Promise<void> }).close?.();

    // Processes whose demand is `demand` × the mock's window limit.
    const c = redisQuotaConfig;
    const limited = await startInFlightMockServer({
      limits: { perWindow: { requests: c.limit, windowMs: c.windowMs } },
    });
    try {
      const offeredPerProcess = (c.demand * c.limit * c.offeredMs) / c.windowMs / c.processes;
      const calls = Math.ceil(offeredPerProcess);
      const settings: WorkerSettings = {
        redisUrl: server.url,
        client: 'node-redis',
        baseUrl: limited.url,
        apiKey: MOCK_API_KEY,
        prefix: 'bench-processes',
        calls,
        spacingMs: Math.floor(c.offeredMs / calls),
        perWindow: c.limit,
        windowMs: c.windowMs,
        maxRetries: 0,
      };
      const before = await commandStats(stats);
      const reports = await Promise.all(Array.from({ length: c.processes }, () => runWorker(settings)));
      const commands = (await commandStats(stats)).scripts - before.scripts;
      const requests = reports.reduce(
        (sum, r) => sum + r.ok + Object.values(r.failed).reduce((a, b) => a + b, 0),
        0,
      );
      const ok = limited.statusCount(200);
      // At the limit, n requests take floor((n - 1) / limit) whole windows from the first arrival to the
      // last: that time over the time they took.
      const { arrivals } = limited;
      const span = arrivals[arrivals.length - 1]! - arrivals[0]!;
      const achievedOverLimit = (Math.floor((arrivals.length - 1) / c.limit) * c.windowMs) / span;
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
        commandsFree,
        commandsFreeNoLeases,
        processes: c.processes,
        requests,
        achievedOverLimit,
        tooMany: limited.statusCount(429),
        failed: requests - ok,
        longestWaitMs: reports.map((r) => r.longestMs),
        commandsWaiting: commands / requests,
      };
    } finally {
      await limited.close();
    }
  } finally {
    await bottleneck.disconnect(false).catch(() => {});
    io.disconnect();
    redis.destroy();
    stats.destroy();
    await mock.close();
    await server.close();
  }
}

await report(main);
