// `scholarly-metrics/redis` as a user writes it, with the real node-redis and ioredis types (both
// linked into the consumer projects): the quota takes either client as it comes; no top-level await.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import {
  type ClientOptions,
  MetricClient,
  type MetricError,
  QuotaUnavailableError,
  type SharedQuota,
} from 'scholarly-metrics';
import {
  createRedisQuota,
  type RedisClientLike,
  type RedisQuotaOptions,
  type RedisSharedQuota,
} from 'scholarly-metrics/redis';

declare const perDay: number | undefined;

export async function withNodeRedis(): Promise<number> {
  // node-redis's `url` takes no `undefined` under exactOptionalPropertyTypes, hence the fallback.
  const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' });
  redis.on('error', (error: Error) => console.warn(error.message));
  await redis.connect();
  const quota: RedisSharedQuota = createRedisQuota({
    redis,
    maxRequestsPerMinute: 600,
    maxConcurrency: 16,
    maxRequestsPerDay: perDay,
    prefix: 'scholarly-metrics',
  });
  const client = new MetricClient({ apiKey: 'k', baseUrl: 'https://x.example/api/v1', quota });
  const journals = await client.journals.list();
  const closed: Promise<void> = quota.close();
  await closed;
  await redis.close();
  return journals.length;
}

export function withIORedis(): MetricClient {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const options: RedisQuotaOptions = { redis, maxConcurrency: 8, prefix: undefined };
  const quota: SharedQuota = createRedisQuota(options);
  const clientOptions: ClientOptions = { apiKey: 'k', baseUrl: 'https://x.example/api/v1', quota };
  // withOptions children share the parent's quota; a per-call timeout bounds the wait for Redis.
  return new MetricClient(clientOptions).withOptions({ timeout: 5_000 });
}

export function likes(node: ReturnType<typeof createClient>, io: Redis): RedisClientLike[] {
  const fromNode: RedisClientLike = node;
  const fromIO: RedisClientLike = io;
  return [fromNode, fromIO];
}

export async function unavailable(client: MetricClient): Promise<string> {
  try {
    return (await client.journals.get(42)).name;
  } catch (error) {
    if (error instanceof QuotaUnavailableError) {
      const name: 'QuotaUnavailableError' = error.name;
      const base: MetricError = error;
      return `${name}: ${base.message} (${String(error.cause)})`;
    }
    throw error;
  }
}

declare const maybeQuota: SharedQuota | undefined;

export function quotaOrOwnLimits(quota: SharedQuota): MetricClient[] {
  const base = { apiKey: 'k', baseUrl: 'https://x.example/api/v1' };
  const fromConfig: ClientOptions = { ...base, quota: maybeQuota };
  const own: ClientOptions = { ...base, quota: undefined, maxConcurrency: 4, maxRequestsPerMinute: 60 };
  const client = new MetricClient(fromConfig);
  return [
    client,
    new MetricClient(own),
    new MetricClient({ ...base, quota, maxConcurrency: undefined }),
    client.withOptions({ quota, timeout: 5_000 }),
    // @ts-expect-error: quota takes the place of the client's own maxConcurrency
    new MetricClient({ ...base, quota, maxConcurrency: 16 }),
    // @ts-expect-error: and of its maxRequestsPerMinute
    new MetricClient({ ...base, quota: maybeQuota, maxRequestsPerMinute: 600 }),
    // @ts-expect-error: withOptions likewise
    client.withOptions({ quota, maxConcurrency: 2 }),
  ];
}

export function wrong(io: Redis): unknown[] {
  return [
    // @ts-expect-error: the option is maxRequestsPerMinute
    createRedisQuota({ redis: io, maxRequestPerMinute: 600 }),
    // @ts-expect-error: a Map is no Redis client
    createRedisQuota({ redis: new Map<string, string>(), maxConcurrency: 4 }),
    // @ts-expect-error: the client is needed
    createRedisQuota({ maxConcurrency: 4 }),
    // @ts-expect-error: limits are numbers
    createRedisQuota({ redis: io, maxConcurrency: '16' }),
  ];
}
