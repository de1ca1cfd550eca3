import { Deadline } from '../core/abort.js';
import { ConfigurationError, QuotaUnavailableError } from '../core/errors.js';
import type { QuotaIdentity, RequestQuota, SharedQuota } from '../core/quota-types.js';
import { type ScriptRunner, scriptRunner } from './adapter.js';
import { Deadlines } from './deadlines.js';
import { partitionHash, partitionKeys } from './keys.js';
import { type RedisQuotaOptions, resolveRedisQuotaOptions } from './options.js';
import { type PartitionLimits, RedisPartition } from './partition.js';

export type { RedisQuotaOptions } from './options.js';

/**
 * A quota shared through Redis, as {@link createRedisQuota} returns it.
 *
 * @example
 * ```ts
 * const quota: RedisSharedQuota = createRedisQuota({ redis, maxConcurrency: 16 });
 * // … the process's calls …
 * await quota.close(); // what the quota still holds for Redis reaches it
 * await redis.close(); // then your client
 * ```
 */
export interface RedisSharedQuota extends SharedQuota {
  /**
   * Sends what the quota still holds for Redis (the ends of the last calls, a pause or block) and
   * resolves when Redis has it; rejects with `QuotaUnavailableError` when Redis fails or does not answer
   * within 5 s. Call it when the process is done, before closing your Redis client; calls made after it
   * are refused. The Redis client stays yours to close.
   */
  close(): Promise<void>;
}

/** The window lengths, in ms: a minute and a day, shorter only in tests. */
export interface QuotaWindows {
  readonly minuteMs: number;
  readonly dayMs: number;
}

const realWindows: QuotaWindows = { minuteMs: 60_000, dayMs: 86_400_000 };
/** How long close() waits for Redis. */
const closeTimeoutMs = 5_000;

/**
 * A quota kept in Redis. Each base URL and API key gets a partition of its own, under a hash of the
 * two: the key itself never reaches Redis, in a key name or a value.
 */
export class RedisQuota implements RedisSharedQuota {
  readonly #run: ScriptRunner;
  readonly #prefix: string;
  readonly #limits: PartitionLimits;
  /** One partition object per identity in this process, so that its clients wake each other. */
  readonly #partitions = new Map<string, RedisPartition>();
  readonly #deadlines = new Deadlines();
  #closed = false;

  constructor(options: RedisQuotaOptions, windows: QuotaWindows = realWindows) {
    const settings = resolveRedisQuotaOptions(options);
    try {
      this.#run = scriptRunner(options.redis);
    } catch {
      throw new ConfigurationError(
        'redis',
        '`redis` must be a connected node-redis (v4+) client (createClient().connect()) or an ioredis (v5+) client',
      );
    }
    this.#prefix = settings.prefix;
    this.#limits = {
      perMinute: settings.maxRequestsPerMinute,
      minuteMs: windows.minuteMs,
      perDay: settings.maxRequestsPerDay,
      dayMs: windows.dayMs,
      concurrency: settings.maxConcurrency,
    };
  }

  forClient(identity: QuotaIdentity): RequestQuota {
    const hash = partitionHash(identity);
    let partition = this.#partitions.get(hash);
    if (partition === undefined) {
      const keys = partitionKeys(this.#prefix, hash);
      partition = new RedisPartition(this.#run, keys, this.#limits, this.#deadlines);
      this.#partitions.set(hash, partition);
      // A client made after close() is refused like the others.
      if (this.#closed) void partition.close();
    }
    return partition;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const deadline = new Deadline(closeTimeoutMs, undefined);
    try {
      await deadline.race(Promise.all([...this.#partitions.values()].map((p) => p.close())));
    } catch (error) {
      if (!deadline.timedOut) throw error;
      throw new QuotaUnavailableError(`Redis did not answer within ${closeTimeoutMs} ms on close`);
    } finally {
      deadline.clear();
    }
  }
}
