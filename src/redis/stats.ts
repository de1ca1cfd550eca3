import { QuotaUnavailableError } from '../core/errors.js';
import { type ScriptRunner, script } from './adapter.js';
import { argTemplate } from './keys.js';
import { STATS_SCRIPT, statsArgs } from './lua-scripts.js';
import { type PartitionLimits, scriptSettings } from './partition-parts.js';
import { redisFailure, replyInteger } from './reply.js';
import { runThroughTransients, until } from './transient.js';

const statsScript = script(STATS_SCRIPT);

/**
 * What a Redis quota holds now, across every process sharing it, as `quota.stats()` reads it.
 *
 * @example
 * ```ts
 * const { waiting, inFlight, startedLastMinute, startedToday, pause } = await quota.stats();
 * if (pause) console.warn(`paused by a 429 for ${pause.remainingMs} ms more`);
 * ```
 */
export interface RedisQuotaStats {
  /** Calls waiting in Redis's line for a place. */
  readonly waiting: number;
  /** Requests holding a place now (started, not yet ended, lease not run out). */
  readonly inFlight: number;
  /**
   * Requests started in the last 60 s, counted from the log a per-minute or per-day limit keeps
   * (0 without either: the quota keeps no log it does not need).
   */
  readonly startedLastMinute: number;
  /** Requests started in the last 24 h (0 without `maxRequestsPerDay`, which keeps that log). */
  readonly startedToday: number;
  /** The pause a 429 being retried set, while it lasts: no request starts before it ends. */
  readonly pause?: { readonly remainingMs: number };
  /** The block a daily-limit 429 set, while it lasts: every request is refused unsent. */
  readonly block?: { readonly remainingMs: number };
}

const counts = ['waiting', 'inFlight', 'startedLastMinute', 'startedToday'] as const;

/** One partition's stats: one script, answered within `timeoutMs` (a cluster's transient answers asked again). */
export async function readStats(
  run: ScriptRunner,
  keys: string[],
  limits: PartitionLimits,
  timeoutMs: number,
): Promise<RedisQuotaStats> {
  const patience = until(performance.now() + timeoutMs);
  const args = [...argTemplate(statsArgs, scriptSettings(limits)).template];
  let reply: unknown;
  try {
    reply = await runThroughTransients(run, statsScript, keys, args, patience);
  } catch (error) {
    throw redisFailure(error, 'no stats read');
  }
  const numbers = Array.isArray(reply) ? reply.map(replyInteger) : [];
  if (numbers.length !== 6 || !numbers.every((n) => n !== undefined && n >= 0)) {
    throw new QuotaUnavailableError('Redis answered the stats script with a reply it never sends');
  }
  const [waiting, inFlight, startedLastMinute, startedToday, pauseMs, blockMs] = numbers as number[];
  return {
    waiting: waiting as number,
    inFlight: inFlight as number,
    startedLastMinute: startedLastMinute as number,
    startedToday: startedToday as number,
    ...(pauseMs ? { pause: { remainingMs: pauseMs } } : {}),
    ...(blockMs ? { block: { remainingMs: blockMs } } : {}),
  };
}

/** The stats of several partitions as one: counts added, the longest pause and block. */
export function sumStats(all: readonly RedisQuotaStats[]): RedisQuotaStats {
  const sum = Object.fromEntries(counts.map((name) => [name, all.reduce((n, s) => n + s[name], 0)]));
  const longest = (hold: 'pause' | 'block') => {
    const ms = Math.max(0, ...all.map((s) => s[hold]?.remainingMs ?? 0));
    return ms > 0 ? { [hold]: { remainingMs: ms } } : {};
  };
  return { ...(sum as Record<(typeof counts)[number], number>), ...longest('pause'), ...longest('block') };
}
