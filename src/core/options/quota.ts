import { ConfigurationError } from '../errors.js';
import type { SharedQuota } from '../quota-types.js';
import { checkInteger } from './checks.js';

/** The limits of one client, as `new MetricClient()` takes them. */
export interface QuotaLimits {
  readonly maxConcurrency?: number | undefined;
  readonly maxRequestsPerMinute?: number | undefined;
  readonly pacing?: 'burst' | 'even' | undefined;
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
    pacing: checkPacing(options.pacing),
  };
  const { quota } = options;
  if (quota === undefined) return { limits, quota: undefined };
  if (limits.pacing !== undefined) {
    throw new ConfigurationError('pacing', 'Set `pacing` on `quota` (createRedisQuota), not on the client');
  }
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

/** `pacing`: `'burst'`, `'even'` or unset. */
export function checkPacing(pacing: unknown): 'burst' | 'even' | undefined {
  if (pacing === undefined || pacing === 'burst' || pacing === 'even') return pacing;
  throw new ConfigurationError('pacing', "`pacing` must be 'burst' or 'even'");
}
