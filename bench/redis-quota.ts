/**
 * 9. The quota shared through Redis (src/redis through tsx, node-redis, a redis-server of its own on
 * loopback, the mock server over real HTTP):
 * - per request, a client with a Redis quota whose places are always free against one with no quota,
 *   interleaved round by round, and the Redis commands each request costs (INFO commandstats);
 * - worker processes whose demand is a multiple of the mock's window limit: the rate achieved (from
 *   Redis's own start times) against the limit, the 429s, the longest wait in each process, and the
 *   commands per request while requests wait.
 * `npx tsx bench/redis-quota.ts` runs this part alone and prints its figures as JSON.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { MetricClient } from '../src/index.js';
import { RedisQuota } from '../src/redis/redis-quota.js';
import { MOCK_API_KEY, startMockServer } from '../src/testing/index.js';
import { startInFlightMockServer } from '../test/helpers/in-flight-mock.js';
import { redisServerBinary, startRedisServer } from '../test/helpers/redis-server.js';
import type { WorkerReport, WorkerSettings } from '../test/redis/quota-worker.js';
import { interleave, pairedRatios, report, type Spread, spread } from './lib.js';
import { redisQuotaConfig } from './redis-quota-config.js';

export interface RedisQuotaResult {
  /** Why nothing was measured (no redis-server), if so. */
  skipped?: string;
  rounds: number;
  batch: number;
  /** Per request, µs. */
  noQuota: Spread;
  redisQuota: Spread;
  /** What the Redis quota adds per request, paired round by round, µs. */
  added: Spread;
  ratio: Spread;
  /** Redis round trips per request with free places: with maxConcurrency (acquire + release), without. */
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

/**
 * Round trips to Redis so far: the scripts run (EVALSHA, EVAL), the only commands the quota sends.
 * INFO commandstats also counts the commands a script runs inside Redis, which cost no round trip.
 */
async function roundTrips(redis: { info(section: string): Promise<string> }): Promise<number> {
  const info = await redis.info('commandstats');
  let total = 0;
  for (const [, calls] of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) total += Number(calls);
  return total;
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
  const mock = await startMockServer();
  try {
    // Places always free: limits far above what one sequential loop can use.
    const free = new RedisQuota({
      redis,
      maxRequestsPerMinute: 1e9,
      maxConcurrency: 1e6,
      prefix: 'bench-free',
    });
    const plain = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: mock.url, maxRetries: 0 });
    const shared = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: mock.url, maxRetries: 0, quota: free });
    const rounds = 40;
    const batch = 25;
    const samples = await interleave(
      [
        { name: 'no quota', run: () => plain.subjects.list() },
        { name: 'Redis quota', run: () => shared.subjects.list() },
      ],
      { rounds, batch, warmup: 50 },
    );
    const noQuota = samples.get('no quota')!.wall;
    const withRedis = samples.get('Redis quota')!.wall;

    const perRequest = async (client: MetricClient, n: number) => {
      const before = await roundTrips(redis);
      for (let i = 0; i < n; i++) await client.subjects.list();
      // The release is not waited for: let it land before counting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return ((await roundTrips(redis)) - before) / n;
    };
    const commandsFree = await perRequest(shared, 200);
    const windowOnly = new RedisQuota({ redis, maxRequestsPerMinute: 1e9, prefix: 'bench-window' });
    const commandsFreeNoLeases = await perRequest(
      new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: mock.url, quota: windowOnly }),
      200,
    );

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
      const before = await roundTrips(redis);
      const reports = await Promise.all(Array.from({ length: c.processes }, () => runWorker(settings)));
      const commands = (await roundTrips(redis)) - before;
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
        noQuota: spread(noQuota),
        redisQuota: spread(withRedis),
        added: spread(withRedis.map((value, i) => value - noQuota[i]!)),
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
    redis.destroy();
    await mock.close();
    await server.close();
  }
}

await report(main);
