import type { endpointList } from '../api/endpoints.js';
import type { abortedError } from '../core/clean-cause.js';
import type { routeTo } from '../core/endpoint.js';
import type { APIError, ConnectionError, MetricError, WebhookPayloadError } from '../core/errors.js';
import type { callSecret, checkRequestOptions } from '../core/options/request.js';
import type { queryString } from '../core/path.js';
import type { mentionsSecret } from '../core/redact.js';
import type { parseResponse } from '../core/validate.js';
import type { VERSION } from '../core/version.js';

/**
 * What the cache uses of the client's first load, handed over by its loader (client-cache.ts) rather
 * than imported: the cache is loaded on demand, and importing a few of the first load's modules would
 * make a splitting bundler cut them out of the first load into chunks of their own.
 */
export interface FirstLoadParts {
  readonly VERSION: typeof VERSION;
  readonly endpointList: typeof endpointList;
  readonly routeTo: typeof routeTo;
  readonly checkRequestOptions: typeof checkRequestOptions;
  readonly callSecret: typeof callSecret;
  readonly queryString: typeof queryString;
  readonly mentionsSecret: typeof mentionsSecret;
  /** The error of a caller that aborted, its reason cleaned of the key, as the transport makes it. */
  readonly abortedError: typeof abortedError;
  readonly parseResponse: typeof parseResponse;
  /** The longest wait between two attempts: a backoff's longest, or the longest `Retry-After` obeyed (ms). */
  readonly longestRetryWait: number;
  readonly MetricError: typeof MetricError;
  readonly APIError: typeof APIError;
  readonly ConnectionError: typeof ConnectionError;
  readonly WebhookPayloadError: typeof WebhookPayloadError;
}
