import type { ClientHooks } from '../hook-types.js';
import type { Logger, LogLevel } from '../logger.js';
import type { SharedQuota } from '../quota-types.js';
import type { QuotaLimits } from './quota.js';

/**
 * The client's options once checked, with their defaults applied: what the transport and the cache
 * read. The `cache` option is the cache's own (src/cache/options.ts), resolved beside these.
 */
export interface ResolvedClientOptions {
  apiKey: string | null;
  /**
   * What every message, log line and span is cleaned of, and the key the client's quota counts: the
   * credential its `Authorization` header sends, one put in `headers` over `apiKey`.
   */
  secret: string | null;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  headers: Headers | undefined;
  hooks: ClientHooks | undefined;
  logLevel: LogLevel;
  logger: Logger | undefined;
  maxResponseBytes: number;
  /** The client's own limits; both unset with a shared `quota`. */
  limits: QuotaLimits;
  /** The shared quota, already known to have `forClient`. */
  quota: SharedQuota | undefined;
}
