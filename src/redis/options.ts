import { ConfigurationError } from '../core/errors.js';
import {
  checkInteger,
  checkNames,
  checkObject,
  type OptionNames,
  type Resolved,
} from '../core/options/checks.js';
import { checkPacing, checkRequestLimit } from '../core/options/quota.js';
import type { RedisClientLike } from './adapter.js';

/**
 * Options of {@link createRedisQuota}. Each limit holds across every process and machine whose
 * clients share the Redis, the prefix, the base URL and the API key.
 *
 * @example
 * ```ts
 * createRedisQuota({ redis, maxRequestsPerMinute: 600, maxConcurrency: 16, maxRequestsPerDay: 50_000 });
 * ```
 */
export interface RedisQuotaOptions {
  /** A connected node-redis (v4+) or ioredis (v5+) client. Yours: the SDK never closes it. */
  readonly redis: RedisClientLike;
  /** Requests started in any 60 s (a sliding window). @default no limit */
  readonly maxRequestsPerMinute?: number | undefined;
  /** Requests in flight at once. @default no limit */
  readonly maxConcurrency?: number | undefined;
  /** Requests started in any 24 h (a sliding window). @default no limit */
  readonly maxRequestsPerDay?: number | undefined;
  /**
   * The prefix of every Redis key the quota writes; no `{` or `}`, which would break the hash tag that
   * keeps a partition's keys in one Redis Cluster slot. @default 'scholarly-metrics'
   */
  readonly prefix?: string | undefined;
  /**
   * How starts are spread over the windows. `'burst'`: a request starts as soon as the window has
   * room, so a minute's budget can go out in its first seconds. `'even'`: starts are spaced at the
   * window's rate (a minute ÷ `maxRequestsPerMinute`, or a day ÷ `maxRequestsPerDay` if longer)
   * across every process sharing the quota; nothing changes without a per-minute or per-day limit.
   * @default 'burst'
   * @example
   * ```ts
   * createRedisQuota({ redis, maxRequestsPerMinute: 600, pacing: 'even' }); // a start every 100 ms
   * ```
   */
  readonly pacing?: 'burst' | 'even' | undefined;
  /**
   * How long a place stays held for a process that died while its request was in flight (killed,
   * crashed, cut off from Redis), in ms: each lease ends this long after its start unless its end is
   * told first. Shorter frees a dead process's places sooner; a request still in flight past it no
   * longer counts against `maxConcurrency`.
   * @default the attempt's `timeout` plus 5 s
   * @example
   * ```ts
   * createRedisQuota({ redis, maxConcurrency: 16, leaseMs: 15_000 });
   * ```
   */
  readonly leaseMs?: number | undefined;
}

/**
 * The options of `createRedisQuota()` once checked, but the Redis client (recognised by its adapter):
 * each limit 0 where it was left out (no such limit, as the quota's scripts take it), and the prefix.
 */
export type ResolvedRedisQuotaOptions = Resolved<Omit<RedisQuotaOptions, 'redis' | 'leaseMs'>> & {
  readonly leaseMs: number | undefined;
};

const optionNames: OptionNames<RedisQuotaOptions> = {
  redis: true,
  maxRequestsPerMinute: true,
  maxConcurrency: true,
  maxRequestsPerDay: true,
  prefix: true,
  pacing: true,
  leaseMs: true,
};

/** Checks the options of `createRedisQuota()`. */
export function resolveRedisQuotaOptions(options: RedisQuotaOptions): ResolvedRedisQuotaOptions {
  checkObject('options', options);
  if (options === undefined)
    throw new ConfigurationError('options', 'createRedisQuota() takes an object of options');
  checkNames('createRedisQuota()', options, Object.keys(optionNames));
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
    maxRequestsPerMinute: checkRequestLimit('maxRequestsPerMinute', options.maxRequestsPerMinute) ?? 0,
    maxRequestsPerDay: checkRequestLimit('maxRequestsPerDay', options.maxRequestsPerDay) ?? 0,
    maxConcurrency: checkRequestLimit('maxConcurrency', options.maxConcurrency) ?? 0,
    prefix,
    pacing: checkPacing(options.pacing) ?? 'burst',
    leaseMs: checkInteger('leaseMs', options.leaseMs, 1_000, maxLeaseMs),
  };
}

/** The longest lease: a day, the longest window. */
const maxLeaseMs = 86_400_000;
