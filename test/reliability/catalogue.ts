/**
 * Every fault the reliability suite injects, with what the SDK must do about it. faults.test.ts runs
 * each one and checks the outcome, the attempts and the waits; secrets.test.ts runs each one again
 * and looks for the API key in everything the failure left behind.
 *
 * Where nothing is set, the defaults apply: 2 retries (so 3 attempts), after p-retry's backoff of
 * 0.5–1 s, then 1–2 s. A `Retry-After` makes a wait longer, never shorter: `Retry-After: 0` still
 * waits the backoff.
 */
import { answerFaults } from './cases/answers.js';
import { connectionFaults } from './cases/connection.js';
import { routingFaults } from './cases/routing.js';
import type { FaultCase } from './cases/shared.js';
import { hangFactor, worstCaseMs } from './harness.js';

export type { FaultCase, Prepared, Servers } from './cases/shared.js';

export const catalogue: readonly FaultCase[] = [...connectionFaults, ...answerFaults, ...routingFaults];

/** The longest wait an entry asks for: the HTTP date about 2 s ahead. */
const longestRetryAfterMs = 2_000;

/**
 * The hang guard every call of the catalogue is held to; not a speed claim. It is {@link hangFactor}
 * times the policy's worst case for the slowest entry: each of its retries after the longest backoff
 * or the longest Retry-After of any entry, each attempt run to its timeout, if it sets one.
 */
export const hangGuardMs =
  hangFactor *
  Math.max(
    ...catalogue.map((entry) =>
      worstCaseMs({
        retries: entry.options?.maxRetries ?? 2,
        timeoutMs: entry.options?.timeout ?? 0,
        retryAfterMs: longestRetryAfterMs,
      }),
    ),
  );

/** Above the hang guard, so that a hang fails with the guard's message rather than vitest's. */
export const catalogueTestTimeoutMs = hangGuardMs + 30_000;
