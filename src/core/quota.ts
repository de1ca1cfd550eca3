import { LocalLimiter } from './local-limiter.js';
import type { RequestQuota } from './quota-types.js';

/**
 * The quota of a client given no shared one: its `maxConcurrency` and `maxRequestsPerMinute`, and the
 * pause after a 429 that is being retried, kept in this process by {@link LocalLimiter}.
 */
export class Quota extends LocalLimiter implements RequestQuota {
  /**
   * Nothing here: within one process a request after a daily-limit 429 meets the same 429 and is
   * refused by the API itself; sharing the refusal across processes is the shared quota's job.
   */
  block(_ms: number): void {}
}
