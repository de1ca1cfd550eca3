import { endpointList } from '../api/endpoints.js';
import type { ClientCache } from '../core/cache-types.js';
import { abortedError } from '../core/clean-cause.js';
import { routeTo } from '../core/endpoint.js';
import { APIError, ConnectionError, MetricError, WebhookPayloadError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { onDemand } from '../core/on-demand.js';
import type { ResolvedClientOptions } from '../core/options/client-types.js';
import { callSecret, checkRequestOptions } from '../core/options/request.js';
import { queryString } from '../core/path.js';
import { mentionsSecret } from '../core/redact.js';
import { backoff, maxRetryAfterSeconds } from '../core/retry.js';
import type { ScoreUpdatedEvent } from '../core/score-updated-event.js';
import { parseResponse } from '../core/validate.js';
import { VERSION } from '../core/version.js';
import type { FirstLoadParts } from './first-load-parts.js';
import type { ResolvedCacheOptions } from './options.js';

/** What the on-demand cache uses of the first load (see FirstLoadParts in ./first-load-parts.ts). */
export const cacheParts: FirstLoadParts = {
  VERSION,
  endpointList,
  routeTo,
  checkRequestOptions,
  callSecret,
  queryString,
  mentionsSecret,
  abortedError,
  parseResponse,
  longestRetryWait: Math.max(backoff.maxTimeout, maxRetryAfterSeconds * 1000),
  MetricError,
  APIError,
  ConnectionError,
  WebhookPayloadError,
};

/**
 * The options are checked at construction; the cache's code is loaded with the first call that needs
 * it, so that a client without a cache never downloads it.
 */
export function clientCache(options: ResolvedCacheOptions, client: ResolvedClientOptions): ClientCache {
  const load = onDemand(() =>
    import('./cache.js').then(({ ResponseCache }) => {
      const logger = createLogger(client.logLevel, client.logger, client.secret);
      return new ResponseCache(options, client, logger, cacheParts);
    }),
  );
  const view = (owner: ResolvedClientOptions): ClientCache => ({
    // An event with no more than its kind and journal is read as one whose score is not known: what
    // the journal shows is dropped (the cache reads each other field only where it is there).
    apply: async (event) => (await load()).apply(event as ScoreUpdatedEvent),
    clear: async () => (await load()).clear(),
    answer: async (route, shape, requestOptions, send) =>
      (await load()).answer(route, shape, requestOptions, send, owner),
    forClient: view,
  });
  return view(client);
}
