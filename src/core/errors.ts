import { describeStatus } from './status-message.js';

/**
 * Every error the SDK throws is a {@link MetricError}; subclasses say why. Each spells its class in
 * `name`, which minifiers would otherwise rename. The other fields are `declare`d: each constructor
 * assigns them, and a field declared plainly would be written into the built class a second time.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.get(42);
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log('no such journal');
 *   else if (error instanceof MetricError) console.log(error.message);
 *   else throw error;
 * }
 * ```
 */
export class MetricError extends Error {
  override name = 'MetricError';
  /** Declared only: to the types, as at run time, a plain `Error` is no `MetricError`. */
  declare private readonly isMetricError: true;
}

/** The request id a server or gateway put on its answer, if any. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') || headers.get('request-id') || undefined;
}

/**
 * The server answered with a non-2xx status; a subclass per status the API document lists.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.get(42);
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log('no journal 42');
 *   else if (error instanceof RateLimitError) console.log(`try again in ${error.retryAfter ?? '?'} s`);
 *   else if (error instanceof AuthenticationError) console.log('check METRIC_API_KEY');
 *   else if (error instanceof PermissionDeniedError) console.log('this plan has no API access');
 *   else if (error instanceof BadRequestError) console.log('refused by the server:', error.message);
 *   else if (error instanceof InternalServerError) console.log(`server error ${error.status}`, error.requestId);
 *   else if (error instanceof APIError) console.log(error.status, error.body);
 *   else throw error;
 * }
 * ```
 */
export class APIError extends MetricError {
  override name = 'APIError';
  /** The HTTP status code. */
  declare readonly status: number;
  /** The response headers. */
  declare readonly headers: Headers;
  /** The response body: parsed JSON when it was JSON, the text otherwise (`undefined` when empty). */
  declare readonly body: unknown;
  /** The server's id for the request, from `X-Request-Id` (or `Request-Id`), for its support team. */
  declare readonly requestId: string | undefined;

  constructor(status: number, headers: Headers, body: unknown, message?: string) {
    super(message ?? describeStatus(status, body));
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.requestId = requestIdOf(headers);
  }
}

/** 400: an invalid parameter or a missing required field, as judged by the server. */
export class BadRequestError extends APIError {
  override name = 'BadRequestError' as const;
  declare readonly status: 400;
}
/** 401: the API key is missing or invalid. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError' as const;
  declare readonly status: 401;
}
/** 403: the key is valid but its plan does not include API access. */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError' as const;
  declare readonly status: 403;
}
/** 404: the journal, paper or author does not exist. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError' as const;
  declare readonly status: 404;
}
/** 5xx: the server failed, and went on failing through every retry (500, 502, 503 and 504 are retried). */
export class InternalServerError extends APIError {
  override name = 'InternalServerError' as const;
  /** 500, 502, 503 or 504 as the API document lists them, or any other status from 500 up. */
  declare readonly status: 500 | 502 | 503 | 504 | (number & {});
}

/** 429: the daily or the per-minute request limit is exceeded. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError' as const;
  declare readonly status: 429;
  /**
   * Seconds to wait before trying again, when the server said (`Retry-After`): a finite number, at
   * most 86,400 (a day, the longest of the API's limits; a longer `Retry-After` counts as a day).
   */
  declare readonly retryAfter: number | undefined;

  constructor(status: number, headers: Headers, body: unknown, retryAfter: number | undefined) {
    super(status, headers, body);
    this.retryAfter = retryAfter;
  }
}

/**
 * The request never got an answer: network failure, reset, refused connection, or a timeout.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.list({ timeout: 5_000 });
 * } catch (error) {
 *   // Both are retried: this is the last attempt's.
 *   if (error instanceof TimeoutError) console.log('no full answer within 5 s');
 *   else if (error instanceof ConnectionError) console.log('offline?', error.cause);
 *   else throw error;
 * }
 * ```
 */
export class ConnectionError extends MetricError {
  override name = 'ConnectionError';
}

/** An attempt ran past its `timeout`, the body read included. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError' as const;
}

/**
 * The caller's `AbortSignal` fired. `cause` holds the signal's reason.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 100);
 * await client.subjects.list({ signal: controller.signal }); // rejects with RequestAbortedError
 * ```
 */
export class RequestAbortedError extends MetricError {
  override name = 'RequestAbortedError' as const;
}

/**
 * One problem found in a response body or webhook payload.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.get(42);
 * } catch (error) {
 *   if (!(error instanceof ResponseValidationError)) throw error;
 *   for (const { path, message } of error.issues) console.log(`${path.join('.')}: ${message}`);
 * }
 * ```
 */
export interface ValidationIssue {
  /** Where in the body, e.g. `['data', 3, 'year']`. */
  readonly path: readonly PropertyKey[];
  /** What is wrong there. */
  readonly message: string;
}

/**
 * A 2xx body that is not JSON or does not match the documented shape.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ResponseValidationError) console.log(error.issues, error.body); }
 * ```
 */
export class ResponseValidationError extends MetricError {
  override name = 'ResponseValidationError' as const;
  /** What did not match, path by path. */
  declare readonly issues: readonly ValidationIssue[];
  /** The raw body text as received. */
  declare readonly body: string;

  constructor(message: string, issues: readonly ValidationIssue[], body: string) {
    super(message);
    this.issues = issues;
    this.body = body;
  }
}

/**
 * A parameter that is surely invalid, refused before any request was sent.
 *
 * @example
 * ```ts
 * await client.journals.get(1.5); // rejects: InvalidParameterError: id must be a safe integer, got 1.5
 * ```
 */
export class InvalidParameterError extends MetricError {
  override name = 'InvalidParameterError' as const;
  /** The name of the refused parameter or option. */
  declare readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
  }
}

/**
 * An invalid option of the client, a call, the cache, the quota, a receiver or the mock: a mistake in
 * the caller's set-up, refused before anything is sent. A call's API parameters (an id, a DOI, `page`)
 * are {@link InvalidParameterError} instead.
 *
 * @example
 * ```ts
 * try {
 *   new MetricClient({ apiKey, baseUrl, timeout: -1 });
 * } catch (error) {
 *   if (error instanceof ConfigurationError) console.log(`fix the option ${error.option}`);
 *   else throw error;
 * }
 * ```
 */
export class ConfigurationError extends MetricError {
  override name = 'ConfigurationError' as const;
  /** The refused option, as the caller spells it (`timeout`, `cache.ttl`, `prefix`, or a variable such as `METRIC_BASE_URL`). */
  declare readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/**
 * A webhook body that is not a valid `score_updated` event.
 *
 * @example
 * ```ts
 * try { parseWebhookEvent(body); } catch (error) { if (error instanceof WebhookPayloadError) respond(400); }
 * ```
 */
export class WebhookPayloadError extends MetricError {
  override name = 'WebhookPayloadError' as const;
  /** What did not match, path by path (empty when the body was not JSON at all). */
  declare readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[] = []) {
    super(message);
    this.issues = issues;
  }
}

/**
 * A response body larger than `maxResponseBytes`: it was not read whole (its `Content-Length` said
 * so, or the count passed the limit while reading) and the connection was released. Not retried: the
 * same request would only bring the same body again.
 *
 * @example
 * ```ts
 * try {
 *   await client.papers.search({ q: 'graphene', per_page: 100 }, { maxResponseBytes: 1024 });
 * } catch (error) {
 *   if (error instanceof ResponseTooLargeError) console.log(`over ${error.limit} bytes`);
 *   else throw error;
 * }
 * ```
 */
export class ResponseTooLargeError extends MetricError {
  override name = 'ResponseTooLargeError' as const;
  /** The limit it passed, in bytes (`maxResponseBytes`). */
  declare readonly limit: number;

  constructor(what: string, limit: number) {
    super(`${what}: the response body is larger than maxResponseBytes (${limit} bytes) and was not read`);
    this.limit = limit;
  }
}

/**
 * A shared quota (`scholarly-metrics/redis`) could not reach its Redis within the call's `timeout`, or
 * Redis failed: the request was not sent. `cause` holds Redis's error. Calls work again once Redis answers.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof QuotaUnavailableError) console.log('Redis is down:', error.cause); }
 * ```
 */
export class QuotaUnavailableError extends MetricError {
  override name = 'QuotaUnavailableError' as const;
}
