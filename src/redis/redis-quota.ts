import { Deadline } from '../core/abort.js';
import { ConfigurationError, QuotaUnavailableError } from '../core/errors.js';
import type { QuotaIdentity, RequestQuota, SharedQuota } from '../core/quota-types.js';
import { type ScriptRunner, scriptRunner } from './adapter.js';
import { Deadlines } from './deadlines.js';
import { partitionHash, partitionKeys } from './keys.js';
import { type RedisQuotaOptions, resolveRedisQuotaOptions } from './options.js';
import { RedisPartition } from './partition.js';
import { type Owing, type PartitionLimits, type PartitionParts, partitionParts } from './partition-parts.js';
import { type RedisQuotaStats, readStats, sumStats } from './stats.js';

export type { RedisQuotaOptions } from './options.js';
export type { RedisQuotaStats } from './stats.js';

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
   * Refuses every call still waiting for a place at once with `QuotaUnavailableError` (nothing is
   * sent), lets the calls in flight finish and waits for them (no longer than their leases), sends
   * what the quota still holds for Redis (the ends of the last calls, a pause or block) and resolves
   * when Redis has it; rejects with `QuotaUnavailableError` when Redis then fails or does not answer
   * within 5 s. Call it when the process is done, before closing your Redis client; calls made after
   * it are refused. The Redis client stays yours to close.
   */
  close(): Promise<void>;
  /**
   * What the quota holds now across every process sharing it: calls waiting, requests in flight,
   * starts in the last minute and day, the pause or block in force; a call of this process that has
   * resolved is not counted in flight (its end is sent first). One Redis round trip per base URL
   * and API key a client of this process still sends as (one, usually; with none, one all the same:
   * the partition of a key whose clients are all gone is let go, in memory, not in Redis), so it serves
   * as a readiness check: it rejects with `QuotaUnavailableError` when Redis fails or does not answer
   * within 5 s.
   *
   * @example
   * ```ts
   * app.get('/ready', async (_req, res) => {
   *   try {
   *     const { waiting, inFlight } = await quota.stats();
   *     res.json({ waiting, inFlight });
   *   } catch {
   *     res.status(503).end(); // Redis is down: this process's calls would be refused
   *   }
   * });
   * ```
   */
  stats(): Promise<RedisQuotaStats>;
}

/** The window lengths, in ms: a minute and a day, shorter only in tests. */
export interface QuotaWindows {
  readonly minuteMs: number;
  readonly dayMs: number;
}

const realWindows: QuotaWindows = { minuteMs: 60_000, dayMs: 86_400_000 };
/** How long close() and stats() wait for Redis. */
const closeTimeoutMs = 5_000;
/** The partition stats() reads when this process has made none: empty, but a round trip all the same. */
const noPartition = 'none';

/**
 * A quota kept in Redis. Each base URL and API key gets a partition of its own, under a hash of the
 * two: the key itself never reaches Redis, in a key name or a value.
 */
export class RedisQuota implements RedisSharedQuota {
  readonly #run: ScriptRunner;
  readonly #prefix: string;
  readonly #limits: PartitionLimits;
  /** What all its partitions share, made once. */
  readonly #parts: PartitionParts;
  /**
   * One partition object per identity in this process, so that its clients wake each other; held
   * weakly, so that the partition of a key no client uses any more (a fleet serving many keys) is
   * let go with its last client. Its entry goes when it is collected.
   */
  readonly #partitions = new Map<string, WeakRef<RedisPartition>>();
  readonly #collected = new FinalizationRegistry<string>((hash) => {
    if (this.#partitions.get(hash)?.deref() === undefined) this.#partitions.delete(hash);
  });
  /** Partitions owing Redis an end or a hold whose send failed: kept until close() sends it again. */
  readonly #owing = new Set<Owing>();
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
      spacing: settings.pacing === 'even' ? spacingOf(settings, windows) : 0,
      leaseMs: settings.leaseMs,
    };
    const owe = (owing: Owing) => this.#owing.add(owing);
    this.#parts = partitionParts(this.#run, this.#limits, this.#deadlines, owe);
  }

  forClient(identity: QuotaIdentity): RequestQuota {
    const hash = partitionHash(identity);
    let partition = this.#partitions.get(hash)?.deref();
    if (partition === undefined) {
      partition = new RedisPartition(partitionKeys(this.#prefix, hash), this.#parts);
      this.#partitions.set(hash, new WeakRef(partition));
      this.#collected.register(partition, hash);
      // A client made after close() is refused like the others.
      if (this.#closed) void partition.close();
    }
    return partition;
  }

  /** The hashes of the partitions still in use in this process, and each partition. */
  #live(): Array<[string, RedisPartition]> {
    const live: Array<[string, RedisPartition]> = [];
    for (const [hash, ref] of this.#partitions) {
      const partition = ref.deref();
      if (partition !== undefined) live.push([hash, partition]);
    }
    return live;
  }

  async stats(): Promise<RedisQuotaStats> {
    const live = this.#live();
    const hashes = live.length > 0 ? live.map(([hash]) => hash) : [noPartition];
    const read = (hash: string) =>
      readStats(this.#run, partitionKeys(this.#prefix, hash), this.#limits, closeTimeoutMs);
    const deadline = new Deadline(closeTimeoutMs, undefined);
    // This process's calls that have ended are told first: their ends otherwise wait a moment for an
    // acquire to carry them, and a call awaited just before would still count as in flight.
    const sent = Promise.all(live.map(([, partition]) => partition.sendEnds()));
    try {
      return sumStats(await deadline.race(sent.then(() => Promise.all(hashes.map(read)))));
    } catch (error) {
      if (!deadline.timedOut) throw error;
      throw new QuotaUnavailableError(`Redis did not answer within ${closeTimeoutMs} ms; no stats read`);
    } finally {
      deadline.clear();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const partitions = [...new Set([...this.#live().map(([, partition]) => partition), ...this.#owing])];
    // The calls in flight end first, with no Redis call meanwhile: the 5 s are for Redis alone.
    await Promise.all(partitions.map((p) => p.land()));
    const deadline = new Deadline(closeTimeoutMs, undefined);
    try {
      await deadline.race(Promise.all(partitions.map((p) => p.close())));
      this.#owing.clear();
    } catch (error) {
      if (!deadline.timedOut) throw error;
      throw new QuotaUnavailableError(`Redis did not answer within ${closeTimeoutMs} ms on close`);
    } finally {
      deadline.clear();
    }
  }
}

/** The least time between two starts (ms) that keeps every window's rate: the strictest of them. */
function spacingOf(
  settings: { maxRequestsPerMinute: number; maxRequestsPerDay: number },
  windows: QuotaWindows,
): number {
  const perMinute = settings.maxRequestsPerMinute > 0 ? windows.minuteMs / settings.maxRequestsPerMinute : 0;
  const perDay = settings.maxRequestsPerDay > 0 ? windows.dayMs / settings.maxRequestsPerDay : 0;
  return Math.max(perMinute, perDay);
}
