import { createHash } from 'node:crypto';
import { resolveRedisQuotaSettings } from '../core/options/quota.js';
import type { QuotaIdentity, RequestQuota, SharedQuota } from '../core/quota-types.js';
import { type RedisClientLike, type ScriptRunner, scriptRunner } from './adapter.js';
import { type PartitionKeys, type PartitionLimits, RedisPartition } from './partition.js';

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
  /** The prefix of every Redis key the quota writes. @default 'scholarly-metrics' */
  readonly prefix?: string | undefined;
}

/** The window lengths, in ms: a minute and a day, shorter only in tests. */
export interface QuotaWindows {
  readonly minuteMs: number;
  readonly dayMs: number;
}

const realWindows: QuotaWindows = { minuteMs: 60_000, dayMs: 86_400_000 };

/**
 * A quota kept in Redis. Each base URL and API key gets a partition of its own, under a hash of the
 * two: the key itself never reaches Redis, in a key name or a value.
 */
export class RedisQuota implements SharedQuota {
  readonly #run: ScriptRunner;
  readonly #prefix: string;
  readonly #limits: PartitionLimits;
  /** One partition object per identity in this process, so that its clients wake each other. */
  readonly #partitions = new Map<string, RedisPartition>();

  constructor(options: RedisQuotaOptions, windows: QuotaWindows = realWindows) {
    const settings = resolveRedisQuotaSettings(options);
    this.#run = scriptRunner(options.redis);
    this.#prefix = settings.prefix;
    this.#limits = {
      perMinute: settings.perMinute,
      minuteMs: windows.minuteMs,
      perDay: settings.perDay,
      dayMs: windows.dayMs,
      concurrency: settings.concurrency,
    };
  }

  forClient(identity: QuotaIdentity): RequestQuota {
    const hash = partitionHash(identity);
    let partition = this.#partitions.get(hash);
    if (partition === undefined) {
      partition = new RedisPartition(this.#run, partitionKeys(this.#prefix, hash), this.#limits);
      this.#partitions.set(hash, partition);
    }
    return partition;
  }
}

/** SHA-256 of the base URL and the key (or of its absence), cut to 128 bits: no secret, no clash. */
export function partitionHash({ baseUrl, apiKey }: QuotaIdentity): string {
  const key = apiKey === null ? 'none' : `key:${apiKey}`;
  return createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex').slice(0, 32);
}

/**
 * `prefix:{hash}:name`: the braces make a Redis Cluster keep a partition's keys in one slot, as
 * a script that touches several keys needs.
 */
export function partitionKeys(prefix: string, hash: string): PartitionKeys {
  const base = `${prefix}:{${hash}}:`;
  return {
    minute: `${base}starts:minute`,
    day: `${base}starts:day`,
    leases: `${base}leases`,
    line: `${base}line`,
    lineExpiry: `${base}line:expiry`,
    lineSeq: `${base}line:seq`,
    pause: `${base}pause`,
    block: `${base}block`,
  };
}
