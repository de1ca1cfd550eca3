/** The settings of bench/redis-quota.ts, read by its report too (the bench file runs when imported). */
export const redisQuotaConfig = {
  /** The mock's window limit, and the quota's: the same, no margin. */
  limit: 5,
  windowMs: 1_000,
  processes: 8,
  /** Demand as a multiple of the limit, offered for `offeredMs`. */
  demand: 3,
  offeredMs: 3_000,
} as const;
