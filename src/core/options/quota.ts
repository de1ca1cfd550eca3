import { ConfigurationError } from '../errors.js';
import type { SharedQuota } from '../quota-types.js';
import { checkInteger, checkObject } from './checks.js';

/** The limits of one client, as `new MetricClient()` takes them. */
export interface QuotaLimits {
  readonly maxConcurrency?: number | undefined;
  readonly maxRequestsPerMinute?: number | undefined;
}

/** A request limit (`maxConcurrency`, `maxRequestsPerMinute`, …): a whole number of at least 1, or unset. */
export function checkRequestLimit(option: string, value: unknown): number | undefined {
  return checkInteger(option, value, 1, Number.MAX_SAFE_INTEGER);
}

/**
 * The client's `quota`, `maxConcurrency` and `maxRequestsPerMinute`: a shared quota takes the place
 * of the client's own limits, so the two are never set together.
 */
export function resolveClientQuota(options: QuotaLimits & { quota?: unknown }): {
  limits: QuotaLimits;
  quota: SharedQuota | undefined;
} {
  const limits = {
    maxConcurrency: checkRequestLimit('maxConcurrency', options.maxConcurrency),
    maxRequestsPerMinute: checkRequestLimit('maxRequestsPerMinute', options.maxRequestsPerMinute),
  };
  const { quota } = options;
  if (quota === undefined) return { limits, quota: undefined };
  if (limits.maxConcurrency !== undefined || limits.maxRequestsPerMinute !== undefined) {
    throw new ConfigurationError(
      'quota',
      'Set the limits on `quota`, not `maxConcurrency` or `maxRequestsPerMinute`',
    );
  }
  if (quota === null || typeof (quota as Partial<SharedQuota>).forClient !== 'function') {
    throw new ConfigurationError('quota', '`quota` must come from createRedisQuota()');
  }
  return { limits, quota: quota as SharedQuota };
}

/** The options of `createRedisQuota()` this module checks; the Redis client is recognised by its adapter. */
export interface RedisQuotaSettings {
  readonly maxRequestsPerMinute?: number | undefined;
  readonly maxConcurrency?: number | undefined;
  readonly maxRequestsPerDay?: number | undefined;
  readonly prefix?: string | undefined;
}

/** The Redis quota's limits as its scripts take them (0: no such limit) and its key prefix. */
export interface ResolvedRedisQuotaSettings {
  readonly perMinute: number;
  readonly perDay: number;
  readonly concurrency: number;
  readonly prefix: string;
}

/** Checks the options of `createRedisQuota()`. */
export function resolveRedisQuotaSettings(options: RedisQuotaSettings): ResolvedRedisQuotaSettings {
  checkObject('options', options);
  if (options === undefined)
    throw new ConfigurationError('options', 'createRedisQuota() takes an object of options');
  const prefix = options.prefix ?? 'scholarly-metrics';
  if (typeof prefix !== 'string' || prefix === '') {
    throw new ConfigurationError('prefix', '`prefix` must be a non-empty string');
  }
  // The quota puts its own hash tag after the prefix: a brace would make or break it.
  if (/[{}]/.test(prefix)) {
    throw new ConfigurationError(
      'prefix',
      '`prefix` must not contain `{` or `}`: the quota puts its own hash tag after it, so that Redis Cluster keeps a partition’s keys in one slot',
    );
  }
  return {
    perMinute: checkRequestLimit('maxRequestsPerMinute', options.maxRequestsPerMinute) ?? 0,
    perDay: checkRequestLimit('maxRequestsPerDay', options.maxRequestsPerDay) ?? 0,
    concurrency: checkRequestLimit('maxConcurrency', options.maxConcurrency) ?? 0,
    prefix,
  };
}
