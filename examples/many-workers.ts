/**
 * A DOI harvest split across worker processes that share one API key, and so one quota, through
 * Redis: together they stay within the key's limits, so the server answers no request with 429.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx node examples/many-workers.ts [doi …]     (after `npm run build`)
 *
 * The primary forks the workers and gives each a share of the DOIs. Without METRIC_BASE_URL it starts
 * a mock API of its own, uses the mock's key, harvests the DOIs given (48 of the mock's papers when none
 * is) and counts the 429s the mock sent. With METRIC_BASE_URL and METRIC_API_KEY set, it harvests the
 * DOIs given as arguments from that API. Each worker makes its own Redis client and quota: in real
 * life they would be separate services, containers or machines.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createClient } from 'redis';
import { MetricClient } from 'scholarly-metrics';
import { createRedisQuota } from 'scholarly-metrics/redis';
import { MOCK_API_KEY, startMockServer } from 'scholarly-metrics/testing';

const workers = 4;
const limits = { maxRequestsPerMinute: 60, maxConcurrency: 4 };
const redisUrl = process.env.REDIS_URL;
if (redisUrl === undefined) {
  console.error('Set REDIS_URL to a Redis server, e.g. REDIS_URL=redis://127.0.0.1:6379');
  process.exit(2);
}

interface Share {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly dois: readonly string[];
}

if (process.argv[2] === '--worker') {
  process.once('message', (share: Share) => {
    harvest(share).then(
      (found) => process.send?.(found, () => process.exit(0)),
      (error: unknown) => {
        console.error(`worker: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  });
} else {
  await primary();
}

/** One worker: its own Redis connection and quota, over the same key and prefix as the others. */
async function harvest({ baseUrl, apiKey, dois }: Share): Promise<number> {
  let connected = false;
  const redis = createClient({
    url: redisUrl,
    // node-redis retries a first connection forever, so a wrong REDIS_URL would hang the run: give up
    // after a few tries then. Once connected it keeps reconnecting, and a Redis restart is survived.
    socket: {
      reconnectStrategy: (retries, cause) =>
        connected || retries < 5 ? Math.min(100 * 2 ** retries, 2_000) : cause,
    },
  });
  // A dropped connection is an 'error' event: with no listener, a Redis restart would kill the worker.
  // With one, calls meanwhile reject with QuotaUnavailableError and work again once Redis is back.
  redis.on('error', (error) => console.error(`Redis: ${error.message}`));
  const giveUp = setTimeout(() => redis.destroy(), 10_000); // a Redis that accepts and never answers
  await redis.connect().finally(() => clearTimeout(giveUp));
  connected = true;
  const quota = createRedisQuota({ redis, ...limits });
  try {
    const client = new MetricClient({ apiKey, baseUrl, quota });
    // Eight at a time here, but never more than four in flight across all the workers.
    const results = await client.papers.getMany(dois, { concurrency: 8 });
    return results.filter((result) => result.error === undefined).length;
  } finally {
    await quota.close(); // the end of the last calls reaches Redis: the other workers need not wait for it
    await redis.close(); // yours to close: the quota never closes it
  }
}

async function primary(): Promise<void> {
  const given = process.argv.slice(2);
  const apiUrl = process.env.METRIC_BASE_URL;
  if (apiUrl && (!process.env.METRIC_API_KEY || given.length === 0)) {
    console.error(
      'With METRIC_BASE_URL set, set METRIC_API_KEY too and give the DOIs to harvest as arguments: many-workers.ts 10.1000/abc …',
    );
    process.exitCode = 2;
    return;
  }
  // The mock refuses a key's 61st request within a clock minute, as the real API would.
  const ownMock = apiUrl
    ? undefined
    : await startMockServer({ limits: { perMinute: limits.maxRequestsPerMinute } });
  // The mock's key for the mock: a real key you have exported is not sent to it.
  const baseUrl = ownMock?.url ?? (apiUrl as string);
  const apiKey = ownMock ? MOCK_API_KEY : (process.env.METRIC_API_KEY as string);
  const dois =
    given.length > 0 || !ownMock ? given : ownMock.api.dataset.papers.slice(0, 48).map((paper) => paper.doi);
  const children: ChildProcess[] = [];
  try {
    const found = await Promise.all(
      Array.from({ length: workers }, (_, w) => {
        const child = fork(process.argv[1] as string, ['--worker']);
        children.push(child);
        child.send({ baseUrl, apiKey, dois: dois.filter((_, i) => i % workers === w) } satisfies Share);
        return new Promise<number>((resolve, reject) => {
          child.once('message', (count) => resolve(count as number));
          child.once('exit', (code, signal) =>
            reject(new Error(`worker ${w} exited with ${signal ?? `code ${code}`}`)),
          );
        });
      }),
    );
    const total = found.reduce((a, b) => a + b, 0);
    console.log(`${workers} workers harvested ${total} of ${dois.length} papers`);
    if (ownMock) {
      const refused = ownMock.api.requests.filter((request) => request.status === 429).length;
      console.log(`429 answers from the API: ${refused}`);
    }
  } catch (error) {
    // One worker failed (its own line, above, says why): the harvest is incomplete, so stop the rest.
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
    console.error(`many-workers: ${(error as Error).message}; the others were stopped`);
    process.exitCode = 1;
  } finally {
    await ownMock?.close();
  }
}
