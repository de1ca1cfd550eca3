// §11, Redis's side: what INFO commandstats counts for a contender's scripts, and worker processes
// (test/redis/quota-worker.ts) sharing one quota at a multiple of the mock's window limit.
import { MOCK_API_KEY } from '../src/testing/index.js';
import { startInFlightMockServer } from '../test/helpers/in-flight-mock.js';
import type { WorkerReport, WorkerSettings } from '../test/redis/quota-worker.js';
import { runNode, scaled, sleep } from './lib.js';

// The mock's window limit and the quota's, no margin; demand a multiple of it. The paced run offers its
// demand for a third of `pacedMs`, so that at the limit it lasts `pacedMs`.
export const processesConfig = {
  limit: 5,
  windowMs: 1_000,
  processes: 8,
  demand: 3,
  offeredMs: scaled(3_000, 1_000),
  pacedMs: scaled(120_000, 3_000),
};

type Info = { info(section: string): Promise<string> };

/** Scripts run (EVALSHA and EVAL, all any contender here sends) and Redis's own time on them, µs. */
async function commandStats(redis: Info): Promise<{ scripts: number; usec: number }> {
  const stats = { scripts: 0, usec: 0 };
  const info = await redis.info('commandstats');
  for (const [, calls, usec] of info.matchAll(/^cmdstat_eval(?:sha)?(?:_ro)?:calls=(\d+),usec=(\d+)/gm)) {
    stats.scripts += Number(calls);
    stats.usec += Number(usec);
  }
  return stats;
}

/** Scripts per call and Redis's time per call, over `n` calls of `run`, one at a time. */
export async function costOf(redis: Info, n: number, run: () => Promise<unknown>) {
  // Let what an earlier contender left (an end sent after a short idle) land first.
  await sleep(100);
  const before = await commandStats(redis);
  for (let i = 0; i < n; i++) await run();
  await sleep(100);
  const after = await commandStats(redis);
  return { roundTrips: (after.scripts - before.scripts) / n, redisUs: (after.usec - before.usec) / n };
}

const runWorker = (settings: WorkerSettings) =>
  runNode(['--import', 'tsx', 'test/redis/quota-worker.ts'], { QUOTA_WORKER: JSON.stringify(settings) }).then(
    (out) => JSON.parse(out.trim().split('\n').pop() ?? '{}') as WorkerReport,
  );

const longestGap = (times: number[]) => Math.max(...times.slice(1).map((t, i) => t - times[i]!));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The processes, each its own node-redis client and quota over one key; `extra` for pacing or a cluster. */
export async function processes(
  redisUrl: string,
  stats: Info | undefined,
  extra: Partial<WorkerSettings> = {},
  offeredMs = processesConfig.offeredMs,
) {
  const { limit, windowMs, demand, processes } = processesConfig;
  const mock = await startInFlightMockServer({ limits: { perWindow: { requests: limit, windowMs } } });
  try {
    const calls = Math.ceil((demand * limit * offeredMs) / windowMs / processes);
    const where = { redisUrl, client: 'node-redis', baseUrl: mock.url, apiKey: MOCK_API_KEY } as const;
    const pace = { calls, spacingMs: Math.floor(offeredMs / calls), maxRetries: 0, perWindow: limit };
    const settings: WorkerSettings = { ...where, prefix: 'bench-processes', ...pace, windowMs, ...extra };
    const before = stats && (await commandStats(stats));
    const reports = await Promise.all(Array.from({ length: processes }, () => runWorker(settings)));
    const scripts = stats && before ? (await commandStats(stats)).scripts - before.scripts : Number.NaN;
    const requests = sum(reports.map((r) => r.ok + sum(Object.values(r.failed))));
    // At the limit, n requests take floor((n - 1) / limit) whole windows from the first arrival to the
    // last: that time over the time they took.
    const { arrivals } = mock;
    const spanMs = arrivals[arrivals.length - 1]! - arrivals[0]!;
    return {
      processes,
      offeredMs,
      requests,
      spanMs,
      achievedOverLimit: (Math.floor((arrivals.length - 1) / limit) * windowMs) / spanMs,
      tooMany: mock.statusCount(429),
      failed: requests - mock.statusCount(200),
      longestWaitMs: reports.map((r) => r.longestMs),
      /** The longest time between two arrivals at the mock, and between two starts the quota granted. */
      longestGapMs: longestGap([...arrivals]),
      longestStartGapMs: longestGap(reports.flatMap((r) => r.starts).sort((a, b) => a - b)),
      /** Scripts per request across the processes, waiting included. */
      commandsWaiting: scripts / requests,
    };
  } finally {
    await mock.close();
  }
}
