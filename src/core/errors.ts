/**
 * Every error the SDK throws is a {@link MetricError}; subclasses say why.
 *
 * Class names are spelled out in `name` (not read from `constructor.name`) so they survive minifiers.
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
}

/** Labels of the statuses the API document lists, used in messages. */
const statusLabels: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Rate Limited',
  500: 'Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The request id a server or gateway put on its answer, if any. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? headers.get('request-id') ?? undefined;
}

/**
 * The server answered with a non-2xx status.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof APIError) console.log(error.status, error.body); }
 * ```
 */
export class APIError extends MetricError {
  override name = 'APIError';
  /** The HTTP status code. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Headers;
  /** The response body: parsed JSON when it was JSON, the text otherwise (`undefined` when empty). */
  readonly body: unknown;
  /** The server's id for the request, from `X-Request-Id` (or `Request-Id`), for its support team. */
  readonly requestId: string | undefined;

  constructor(status: number, headers: Headers, body: unknown, message?: string) {
    super(message ?? describeStatus(status, body));
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.requestId = requestIdOf(headers);
  }
}

/**
 * 400: an invalid parameter or a missing required field, as judged by the server.
 *
 * @example
 * ```ts
 * try {
 *   await client.papers.search({ q: 'graphene', sort: 'newest' }); // `sort` values are the server's to judge
 * } catch (error) {
 *   if (error instanceof BadRequestError) console.log('refused by the server:', error.message);
 *   else throw error;
 * }
 * ```
 */
export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/**
 * 401: the API key is missing or invalid.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.list();
 * } catch (error) {
 *   if (error instanceof AuthenticationError) console.log('check METRIC_API_KEY');
 *   else throw error;
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/**
 * 403: the key is valid but its plan does not include API access.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.list();
 * } catch (error) {
 *   if (error instanceof PermissionDeniedError) console.log('this plan has no API access');
 *   else throw error;
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
/**
 * 404: the journal, paper or author does not exist.
 *
 * @example
 * ```ts
 * const journal = await client.journals.get(42).catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return undefined;
 *   throw error;
 * });
 * ```
 */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/**
 * 5xx: the server failed.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.list({ maxRetries: 4 });
 * } catch (error) {
 *   // 500, 502, 503 and 504 are retried: this one outlasted every retry.
 *   if (error instanceof InternalServerError) console.log(`server error ${error.status}`, error.body);
 *   else throw error;
 * }
 * ```
 */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/**
 * 429: the daily or the per-minute request limit is exceeded.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof RateLimitError) console.log(`try again in ${error.retryAfter ?? '?'} s`);
 * }
 * ```
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds to wait before trying again, when the server said (`Retry-After`). */
  readonly retryAfter: number | undefined;

  constructor(status: number, headers: Headers, body: unknown, retryAfter: number | undefined) {
    super(status, headers, body);
    this.retryAfter = retryAfter;
  }
}

/**
 * The request never got an answer: network failure, reset, refused connection.
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof ConnectionError) console.log('offline?', error.cause); }
 * ```
 */
export class ConnectionError extends MetricError {
  override name = 'ConnectionError';
}

/**
 * An attempt ran past its `timeout`, the body read included.
 *
 * @example
 * ```ts
 * try {
 *   await client.journals.list({ timeout: 5_000 });
 * } catch (error) {
 *   // Timeouts are retried: this is the last attempt's.
 *   if (error instanceof TimeoutError) console.log('no full answer within 5 s');
 *   else throw error;
 * }
 * ```
 */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
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
  override name = 'RequestAbortedError';
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
  override name = 'ResponseValidationError';
  /** What did not match, path by path. */
  readonly issues: readonly ValidationIssue[];
  /** The raw body text as received. */
  readonly body: string;

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
 * await client.journals.get(-1); // rejects: InvalidParameterError: id must be a positive integer, got -1
 * ```
 */
export class InvalidParameterError extends MetricError {
  override name = 'InvalidParameterError';
  /** The name of the refused parameter or option. */
  readonly parameter: string;

  constructor(parameter: string, message: string) {
    super(message);
    this.parameter = parameter;
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
  override name = 'WebhookPayloadError';
  /** What did not match, path by path (empty when the body was not JSON at all). */
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[] = []) {
    super(message);
    this.issues = issues;
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
  override name = 'QuotaUnavailableError';
}

/** `"404 Not Found: no journal 7"`: the status, its label, and what the body says, briefly. */
function describeStatus(status: number, body: unknown): string {
  const label = statusLabels[status] ?? (status >= 500 ? 'Server Error' : 'Error');
  const detail = summarizeBody(body);
  return detail ? `${status} ${label}: ${detail}` : `${status} ${label}`;
}

const maxDetailLength = 200;

function summarizeBody(body: unknown): string {
  let text = '';
  if (typeof body === 'string') text = body;
  else if (body !== null && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = record.error as Record<string, unknown> | undefined;
    const candidate = record.message ?? record.error ?? record.detail ?? nested?.message;
    if (typeof candidate === 'string') text = candidate;
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > maxDetailLength ? `${text.slice(0, maxDetailLength)}…` : text;
}
