/**
 * Exit codes and the errors of the `scholarly-metrics` command itself (their report, which knows
 * the SDK's errors, is in report.ts: loaded when there is one to report).
 */

/** The exit codes of the contract: done, an API or network error, a usage error, a rate limit that will not clear soon. */
export const exitCodes = { ok: 0, failed: 1, usage: 2, interrupted: 130, rateLimited: 75 } as const;

/** A command line that cannot run as given: exits 2 with the message and what is allowed. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A stop that is not a failure of the API: Ctrl-C. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}
