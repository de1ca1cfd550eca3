// One worker process of the cross-process tests: a MetricClient on a Redis quota, sending `calls`
// requests at once to the mock, then printing one JSON line of what happened. `QUOTA_WORKER` holds
// its settings; with `hold`, it takes `hold` places through the quota and keeps them until killed.
import { MetricClient } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';

export interface WorkerSettings {
  readonly redisUrl: string;
  readonly client: 'node-redis' | 'ioredis';
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly prefix: string;
  readonly calls: number;
  readonly perWindow?: number;
  readonly windowMs?: number;
  readonly maxConcurrency?: number;
  readonly maxRetries?: number;
  /** The client's `timeout` (ms): a lease lasts it plus a margin. */
  readonly timeout?: number;
  readonly hold?: number;
  /** Start call `i` at `i × spacingMs` instead of all at once: a steady demand. @default 0 */
  readonly spacingMs?: number;
  /** Send the calls one after another (each once the last has settled) instead of all at once. */
  readonly sequential?: boolean;
  /**
   * How the worker ends: `close` (the default) calls `quota.close()` then closes its Redis client, as the
   * docs say; `quit` closes the Redis client right after the last answer, without `quota.close()`;
   * `exit` leaves at once with `process.exit`, its connection dropped.
   */
  readonly ending?: 'close' | 'quit' | 'exit';
  /** The quota's `pacing`. @default 'burst' */
  readonly pacing?: 'burst' | 'even';
  /** A Redis Cluster's node URLs: the worker connects a cluster client instead of `redisUrl`. */
  readonly clusterUrls?: readonly string[];
}

export interface WorkerReport {
  readonly ok: number;
  /** Failed calls by error class. */
  readonly failed: Record<string, number>;
  /** The longest a call took, waiting for its turn included (ms). */
  readonly longestMs: number;
  /** When the quota let each attempt through (ms since the epoch, fractional): the starts it granted. */
  readonly starts: number[];
}

const settings = JSON.parse(process.env.QUOTA_WORKER ?? '{}') as WorkerSettings;

/**
 * Closed gracefully (QUIT): a pause or block the last answer set still reaches Redis. Only the client
 * the worker uses is loaded: loading both cost more than most workers' own calls.
 */
async function connect(): Promise<{ client: unknown; close: () => Promise<unknown> }> {
  if (settings.clusterUrls) return connectCluster(settings.clusterUrls);
  if (settings.client === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis(settings.redisUrl);
    return { client, close: () => client.quit() };
  }
  const { createClient } = await import('redis');
  const client = await createClient({ url: settings.redisUrl }).connect();
  return { client, close: () => client.close() };
}

async function connectCluster(urls: readonly string[]) {
  if (settings.client === 'ioredis') {
    const { Cluster } = await import('ioredis');
    const client = new Cluster(urls.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })));
    await new Promise((resolve) => client.once('ready', resolve));
    return { client, close: () => client.quit() };
  }
  const { createCluster } = await import('redis');
  const client = await createCluster({ rootNodes: urls.map((url) => ({ url })) }).connect();
  return { client, close: () => client.close() };
}

const redis = await connect();
const quota = new RedisQuota(
  {
    redis: redis.client as never,
    maxRequestsPerMinute: settings.perWindow,
    maxConcurrency: settings.maxConcurrency,
    prefix: settings.prefix,
    pacing: settings.pacing,
  },
  { minuteMs: settings.windowMs ?? 60_000, dayMs: 86_400_000 },
);

/** The quota as the client sees it, noting when it lets each attempt through. */
const starts: number[] = [];
const noted = {
  forClient(identity: Parameters<RedisQuota['forClient']>[0]) {
    const partition = quota.forClient(identity);
    return {
      run: <T>(send: () => Promise<T>, attempt?: Parameters<typeof partition.run>[1]) =>
        partition.run(() => {
          starts.push(performance.timeOrigin + performance.now());
          return send();
        }, attempt),
      pause: (ms: number) => partition.pause(ms),
      block: (ms: number) => partition.block(ms),
    };
  },
};

if (settings.hold !== undefined) {
  const partition = quota.forClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  let held = 0;
  for (let i = 0; i < settings.hold; i++) {
    void partition.run(
      () => {
        if (++held === settings.hold) console.log(JSON.stringify({ holding: held }));
        return new Promise(() => {});
      },
      { signal: undefined, timeout: 1_000 },
    );
  }
} else {
  const client = new MetricClient({
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
    quota: noted,
    maxRetries: settings.maxRetries,
    timeout: settings.timeout,
  });
  const failed: Record<string, number> = {};
  let ok = 0;
  let longestMs = 0;
  const call = async (i: number) => {
    if (settings.spacingMs) await new Promise((resolve) => setTimeout(resolve, i * settings.spacingMs!));
    const started = performance.now();
    try {
      await client.subjects.list();
      ok++;
    } catch (error) {
      const name = (error as Error).name;
      failed[name] = (failed[name] ?? 0) + 1;
    }
    longestMs = Math.max(longestMs, performance.now() - started);
  };
  if (settings.sequential) for (let i = 0; i < settings.calls; i++) await call(i);
  else await Promise.all(Array.from({ length: settings.calls }, (_, i) => call(i)));
  const report: WorkerReport = { ok, failed, longestMs: Math.round(longestMs), starts };
  const ending = settings.ending ?? 'close';
  if (ending === 'exit') {
    process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
  } else {
    if (ending === 'close') await quota.close();
    await redis.close();
    console.log(JSON.stringify(report));
  }
}
