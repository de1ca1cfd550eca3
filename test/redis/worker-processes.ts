// Real worker processes over one key and one Redis quota, against the mock server's own limits:
// the window limit (no 429), requests in flight, a worker killed holding places, a daily-limit 429.
// Counts and orders only: no bound on wall-clock time. One file per Redis client
// (processes-*.test.ts), so that the two run side by side.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { MOCK_API_KEY } from '../../src/testing/index.js';
import { startInFlightMockServer } from '../helpers/in-flight-mock.js';
import { expectPaced } from '../helpers/paced.js';
import { type ConnectedRedis, type RedisClientKind, useRedis } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { spawnNode } from '../helpers/spawn.js';
import type { WorkerReport, WorkerSettings } from './quota-worker.js';

const worker = fileURLToPath(new URL('./quota-worker.ts', import.meta.url));

/** Starts a worker; `line` resolves to its first line of output, parsed. */
function startWorker(settings: WorkerSettings): { child: ChildProcess; line: Promise<unknown> } {
  const { child, exited, output } = spawnNode(worker, [], {
    env: { ...process.env, QUOTA_WORKER: JSON.stringify(settings) },
  });
  const line = new Promise<unknown>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const out = output().stdout;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(out.slice(0, end)));
    });
    void exited.then(({ code, stderr }) =>
      reject(new Error(`worker exited (${code}) without a report:\n${stderr}`)),
    );
  });
  return { child, line };
}

function runWorker(settings: WorkerSettings): Promise<WorkerReport> {
  return startWorker(settings).line as Promise<WorkerReport>;
}

/** What the groups of one client's suite share. */
interface WorkerSuite {
  /** The suite's connection to its redis-server, made before its tests. */
  readonly redis: ConnectedRedis;
  /** A worker's Redis settings, on a prefix of its own. */
  base(): Pick<WorkerSettings, 'redisUrl' | 'client' | 'apiKey' | 'prefix'>;
}

/** The suite for one Redis client; `file` names the test file in a loud skip without redis-server. */
export function describeWorkerProcesses(kind: RedisClientKind, file: string): void {
  describe.skipIf(skipWithoutRedis(file))(`worker processes over ${kind.name}`, { timeout: 120_000 }, () => {
    const suite = useWorkerSuite(kind);
    itKeepsTheWindowLimit(suite);
    itKeepsTheWindowExactAcrossExits(suite);
    itPacesAndBoundsWhatIsInFlight(suite);
    itSharesLeasesAndBlocks(suite);
  });
}

/** A redis-server of the suite's own, started before its tests and stopped after them. */
function useWorkerSuite(kind: RedisClientKind): WorkerSuite {
  const started = useRedis(kind);
  let prefixes = 0;
  return {
    get redis() {
      return started.redis;
    },
    base: () => ({
      redisUrl: started.server.url,
      client: kind.name,
      apiKey: MOCK_API_KEY,
      prefix: `p${++prefixes}`,
    }),
  };
}

/** Demand above the window limit across workers draws no 429. */
function itKeepsTheWindowLimit({ base }: WorkerSuite): void {
  it('4 workers, demand above the window limit: no 429, every call succeeds', async () => {
    // The same window as the mock's, no margin: the mock counts arrivals, and the quota counts each
    // start from when its answer came back, after it arrived. Each worker ends and closes its Redis
    // client right after its last answer: the end of that attempt must still reach Redis (when it was
    // lost, its start counted from the grant, and the next window opened early: 429s).
    const windowMs = 4_000;
    const mock = await startInFlightMockServer({ limits: { perWindow: { requests: 4, windowMs } } });
    try {
      const settings = {
        ...base(),
        baseUrl: mock.url,
        calls: 3,
        perWindow: 4,
        windowMs,
        maxRetries: 0,
      };
      const reports = await Promise.all(Array.from({ length: 4 }, () => runWorker(settings)));
      expect(reports.map((r) => r.failed)).toEqual([{}, {}, {}, {}]);
      expect(reports.map((r) => r.ok)).toEqual([3, 3, 3, 3]);
      expect(mock.statusCount(429)).toBe(0);
      expect(mock.statusCount(200)).toBe(12);
      console.log(`longest wait per worker (ms): ${reports.map((r) => r.longestMs).join(', ')}`);
    } finally {
      await mock.close();
    }
  });
}

/** Workers that exit without `quota.close()` leave the window exact for the next ones. */
function itKeepsTheWindowExactAcrossExits({ base }: WorkerSuite): void {
  it('one after another, workers that exit without quota.close(): the window stays exact', async () => {
    // Each call's end rides on the worker's next start, and the last goes after a short idle: a worker
    // that closes its Redis client right after its last answer (quit), or exits at once (exit), loses
    // that end. Its start then counts until its lease ends, never from the grant: the second wave,
    // started as soon as the first has exited, draws no 429 from a mock with the same window.
    const windowMs = 2_000;
    const mock = await startInFlightMockServer({ limits: { perWindow: { requests: 4, windowMs } } });
    try {
      const settings = {
        ...base(),
        baseUrl: mock.url,
        calls: 2,
        perWindow: 4,
        windowMs,
        maxRetries: 0,
        // A lost end holds its start until the lease ends (this plus a margin): short, but not so
        // short that a loaded machine times a request out.
        timeout: 5_000,
        sequential: true,
      };
      const first = await Promise.all([
        runWorker({ ...settings, ending: 'quit' }),
        runWorker({ ...settings, ending: 'exit' }),
      ]);
      const second = await Promise.all([
        runWorker({ ...settings, ending: 'exit' }),
        runWorker({ ...settings, ending: 'close' }),
      ]);
      expect([...first, ...second].map((r) => r.failed)).toEqual([{}, {}, {}, {}]);
      expect(mock.statusCount(429)).toBe(0);
      expect(mock.statusCount(200)).toBe(8);
    } finally {
      await mock.close();
    }
  });
}

/** Even pacing spaces the starts across workers; maxConcurrency bounds what is in flight. */
function itPacesAndBoundsWhatIsInFlight({ base }: WorkerSuite): void {
  it("pacing: 'even' across 4 workers: no 429, starts spaced at the window's rate", async () => {
    // 8 per 1.6 s: a start every 200 ms across the workers, each offering its calls at once.
    const windowMs = 1_600;
    const mock = await startInFlightMockServer({ limits: { perWindow: { requests: 8, windowMs } } });
    try {
      const settings = {
        ...base(),
        baseUrl: mock.url,
        calls: 3,
        perWindow: 8,
        windowMs,
        maxRetries: 0,
        pacing: 'even' as const,
      };
      const asked = performance.timeOrigin + performance.now();
      const reports = await Promise.all(Array.from({ length: 4 }, () => runWorker(settings)));
      expect(reports.map((r) => r.failed)).toEqual([{}, {}, {}, {}]);
      expect(mock.statusCount(429)).toBe(0);
      expect(mock.statusCount(200)).toBe(12);
      const starts = reports.flatMap((r) => r.starts);
      expect(starts).toHaveLength(12);
      expectPaced(starts, asked, 200);
    } finally {
      await mock.close();
    }
  });

  it('maxConcurrency holds across workers: the mock never has more in flight', async () => {
    const mock = await startInFlightMockServer({ faults: { latencyMs: 40 } });
    try {
      const settings = { ...base(), baseUrl: mock.url, calls: 8, maxConcurrency: 3 };
      const reports = await Promise.all(Array.from({ length: 4 }, () => runWorker(settings)));
      expect(reports.map((r) => r.ok)).toEqual([8, 8, 8, 8]);
      expect(mock.highestInFlight).toBeLessThanOrEqual(3);
      expect(mock.highestInFlight).toBeGreaterThanOrEqual(2);
    } finally {
      await mock.close();
    }
  });
}

/** A worker killed holding places, and a daily-limit 429 that blocks the other workers. */
function itSharesLeasesAndBlocks(suite: WorkerSuite): void {
  const { base } = suite;
  it('a worker killed holding places: the others go on once its leases end', async () => {
    // Read as the test runs: the suite connects before its tests, after this registers them.
    const { redis } = suite;
    const mock = await startInFlightMockServer({});
    try {
      const settings = { ...base(), baseUrl: mock.url, calls: 2, maxConcurrency: 2 };
      const holder = startWorker({ ...settings, hold: 2 });
      expect(await holder.line).toEqual({ holding: 2 });
      const [leases] = await redis.keys(`${settings.prefix}:*:l`);
      expect(Number(await redis.command(['ZCARD', leases as string]))).toBe(2);
      holder.child.kill('SIGKILL');
      // The places come back only when the dead worker's leases end (its timeout plus the margin).
      const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2, prefix: settings.prefix });
      const partition = quota.forClient({ baseUrl: mock.url, apiKey: MOCK_API_KEY });
      const othersHeld = await partition.run(async () =>
        Number(await redis.command(['ZCARD', leases as string])),
      );
      // Its own lease, and at most one of the dead worker's: each of the two ends at its own
      // time (taken apart on a loaded machine), and the first one's place is free when it ends.
      expect(othersHeld).toBeGreaterThanOrEqual(1);
      expect(othersHeld).toBeLessThanOrEqual(2);
      expect(await runWorker(settings)).toEqual(expect.objectContaining({ ok: 2, failed: {} }));
    } finally {
      await mock.close();
    }
  });

  it('a daily-limit 429 in one worker: the others’ calls reject without being sent', async () => {
    const mock = await startInFlightMockServer({
      limits: { perDay: 3 },
      now: () => Date.parse('2026-03-01T12:00:00Z'), // Retry-After: 12 h, far over 60 s
    });
    try {
      const settings = { ...base(), baseUrl: mock.url, calls: 4, maxConcurrency: 1 };
      expect(await runWorker(settings)).toEqual(
        expect.objectContaining({ ok: 3, failed: { RateLimitError: 1 } }),
      );
      expect(mock.api.requests.length).toBe(4);
      const others = await Promise.all([runWorker(settings), runWorker(settings)]);
      expect(others.map((r) => r.failed)).toEqual([{ RateLimitError: 4 }, { RateLimitError: 4 }]);
      expect(mock.api.requests.length).toBe(4);
    } finally {
      await mock.close();
    }
  });
}
