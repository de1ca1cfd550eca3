/**
 * `scholarly-metrics/redis`: one quota for every process and machine that sends with one API key,
 * kept in a Redis you already run (node-redis v4+ or ioredis v5+). Node only.
 *
 * @packageDocumentation
 */
import type { SharedQuota } from '../core/quota-types.js';
import { RedisQuota, type RedisQuotaOptions } from './redis-quota.js';

export type { IORedisLike, NodeRedisLike, RedisClientLike } from './adapter.js';
export type { RedisQuotaOptions } from './redis-quota.js';

/**
 * A quota shared through Redis: pass it as `new MetricClient({ quota })` in every process. Starts in
 * any 60 s and any 24 h, and requests in flight, stay within the limits across all of them; a 429
 * seen by one pauses (or, for the daily limit, refuses) them all.
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 * import { createRedisQuota } from 'scholarly-metrics/redis';
 * import { createClient } from 'redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const quota = createRedisQuota({ redis, maxRequestsPerMinute: 600, maxConcurrency: 16 });
 * const client = new MetricClient({ apiKey, baseUrl, quota });
 * ```
 */
export function createRedisQuota(options: RedisQuotaOptions): SharedQuota {
  return new RedisQuota(options);
}
