/**
 * `scholarly-metrics/redis`: one quota for every process and machine that sends with one API key,
 * kept in a Redis you already run (node-redis v4+ or ioredis v5+). Node only.
 *
 * @packageDocumentation
 */
import { RedisQuota, type RedisQuotaOptions, type RedisSharedQuota } from './redis-quota.js';

export type { RedisClientLike } from './adapter.js';
export type { RedisQuotaOptions, RedisQuotaStats, RedisSharedQuota } from './redis-quota.js';

/**
 * A quota shared through Redis: pass it as `new MetricClient({ quota })` in every process. Starts in
 * any 60 s and any 24 h, and requests in flight, stay within the limits across all of them; a 429
 * seen by one pauses (or, for the daily limit, refuses) them all. `quota.close()` when the process is
 * done sends what it still holds for Redis.
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 * import { createRedisQuota } from 'scholarly-metrics/redis';
 * import { createClient } from 'redis';
 *
 * const redis = createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' });
 * redis.on('error', () => {}); // without a listener, a Redis restart kills the process
 * await redis.connect();
 * const quota = createRedisQuota({ redis, maxRequestsPerMinute: 600, maxConcurrency: 16 });
 * const client = new MetricClient({ apiKey, baseUrl, quota });
 * // … when the process is done:
 * await quota.close();
 * await redis.close();
 * ```
 */
export function createRedisQuota(options: RedisQuotaOptions): RedisSharedQuota {
  return new RedisQuota(options);
}
