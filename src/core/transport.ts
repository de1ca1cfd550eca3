import pRetry from 'p-retry';
import { Deadline, sleep } from './abort.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  MetricError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  TimeoutError,
} from './errors.js';
import { createLogger, type Logger, loggableHeaders } from './logger.js';
import { checkRequestOptions, type ResolvedClientOptions } from './options.js';
import type { WalkRequestOptions } from './pagination.js';
import { queryString } from './path.js';
import { redactCause, redactHeaders, redactText, redactValue } from './redact.js';
import { parseRetryAfter, retryDelay } from './retry.js';
import { parseResponse, type ResponseShape } from './validate.js';

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** What a resource asks for: a path below the base URL (segments already encoded) and a query. */
export interface Route {
  readonly path: string;
  readonly query?: Query | undefined;
}

/**
 * Sends every request of a client: one place for headers, timeouts, retries, status mapping and
 * validation. p-retry owns the retries; {@link Deadline} gives each attempt a timeout that also covers
 * reading the body.
 *
 * Requests go to `fetch` itself, not through ky. With ky's retry, timeout and HTTP errors off (all
 * three are done here), it added nothing but its per-request machinery, which no option skips: a
 * `Ky` per call with merged options (two `Headers` copies), normalized retry options, its own
 * `AbortController`, a `Request` that `fetch` then wraps again, and six body-method closures. On
 * loopback that alone cost about 1.5 times a bare `fetch` per request, 1.25 times openapi-fetch:
 * more than the SDK's whole budget, validation included (BENCHMARKS.md, "Per-request overhead").
 */
export class Transport {
  readonly #fetch: typeof globalThis.fetch;
  readonly #baseUrl: string;
  readonly #apiKey: string | null;
  readonly #timeout: number;
  readonly #maxRetries: number;
  /** Sent with every request: built once here, never copied again unless a request adds its own. */
  readonly #headers: Headers;
  /**
   * Whether `fetch` is the runtime's own, which only reads the headers it is given: then every request
   * shares {@link Transport.#headers}. A custom `fetch` gets a copy per request, so that one that adds
   * to `init.headers` cannot change the next request.
   */
  readonly #shareHeaders: boolean;
  readonly #logger: Logger | undefined;

  constructor(options: ResolvedClientOptions) {
    this.#fetch = options.fetch;
    this.#baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
    this.#timeout = options.timeout;
    this.#maxRetries = options.maxRetries;
    this.#logger = createLogger(options.logLevel, options.logger);
    const defaults = new Headers({ accept: 'application/json' });
    if (options.apiKey !== null) defaults.set('authorization', `Bearer ${options.apiKey}`);
    this.#headers = withHeaders(defaults, options.headers);
    this.#shareHeaders = options.fetch === globalThis.fetch;
  }

  /**
   * GETs the route and resolves to its validated body. `route` runs inside the returned promise, so a
   * parameter it refuses rejects the promise rather than throwing at the call site.
   */
  async get<T>(route: () => Route, shape: ResponseShape<T>, requestOptions?: WalkRequestOptions): Promise<T> {
    const options: WalkRequestOptions = checkRequestOptions(requestOptions);
    const { path, query } = this.#route(route);
    const url = this.#baseUrl + path + (query ? queryString(query) : '');
    const headers = options.headers
      ? withHeaders(this.#headers, options.headers)
      : this.#shareHeaders
        ? this.#headers
        : new Headers(this.#headers);
    const { signal } = options;
    const timeout = options.timeout ?? this.#timeout;
    try {
      return await pRetry((attempt) => this.#attempt(url, headers, shape, timeout, options, attempt), {
        retries: options.maxRetries ?? this.#maxRetries,
        // The wait before each retry is chosen and slept in shouldRetry, where Retry-After is known.
        minTimeout: 0,
        signal,
        shouldRetry: async ({ error, retriesConsumed }) => {
          const delay = retryDelay(error, retriesConsumed + 1);
          if (delay === undefined) return false;
          this.#logger?.info(`retrying GET ${url} in ${delay} ms`, { reason: error.message });
          options.onRetry?.(error);
          await sleep(delay, signal);
          return true;
        },
      });
    } catch (error) {
      if (signal?.aborted) {
        throw new RequestAbortedError(`GET ${path} was aborted`, { cause: signal.reason });
      }
      this.#logger?.error(`GET ${url} failed`, { error: (error as Error).message });
      throw error;
    }
  }

  /** The route, or its refusal with the key cut out: a key pasted into the wrong parameter stays secret. */
  #route(route: () => Route): Route {
    try {
      return route();
    } catch (error) {
      const secret = this.#apiKey;
      if (secret && error instanceof InvalidParameterError && error.message.includes(secret)) {
        throw new InvalidParameterError(error.parameter, redactText(error.message, secret));
      }
      throw error;
    }
  }

  async #attempt<T>(
    url: string,
    headers: Headers,
    shape: ResponseShape<T>,
    timeout: number,
    options: WalkRequestOptions,
    attempt: number,
  ): Promise<T> {
    const deadline = new Deadline(timeout, options.signal);
    const started = this.#logger ? Date.now() : 0;
    this.#logger?.debug(`GET ${url}`, { attempt, headers: loggableHeaders(headers) });
    try {
      // Called as a plain function: a browser's fetch refuses any `this` but the global object.
      const fetch = this.#fetch;
      const response = await deadline.race(fetch(url, { headers, signal: deadline.signal }));
      const text = await deadline.race(response.text());
      this.#logger?.debug(`${response.status} from GET ${url} in ${Date.now() - started} ms`);
      if (!response.ok) throw this.#apiError(response, text);
      return await parseResponse(shape, text, this.#apiKey);
    } catch (error) {
      if (error instanceof MetricError) throw error;
      if (options.signal?.aborted) throw new RequestAbortedError('aborted', { cause: options.signal.reason });
      if (deadline.timedOut) {
        throw new TimeoutError(`GET ${url} timed out after ${timeout} ms`);
      }
      // The runtime's own error ("fetch failed", its cause the socket's), without the key it may quote.
      const cause = redactCause(error, this.#apiKey);
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ConnectionError(`GET ${url} failed: ${reason}`, { cause });
    } finally {
      deadline.clear();
    }
  }

  #apiError(response: Response, text: string): APIError {
    const secret = this.#apiKey;
    const headers = redactHeaders(response.headers, secret);
    let body: unknown;
    if (text !== '') {
      try {
        body = redactValue(JSON.parse(text), secret);
      } catch {
        body = redactText(text, secret);
      }
    }
    const { status } = response;
    switch (status) {
      case 400:
        return new BadRequestError(status, headers, body);
      case 401:
        return new AuthenticationError(status, headers, body);
      case 403:
        return new PermissionDeniedError(status, headers, body);
      case 404:
        return new NotFoundError(status, headers, body);
      case 429:
        return new RateLimitError(status, headers, body, parseRetryAfter(headers));
      default:
        return status >= 500
          ? new InternalServerError(status, headers, body)
          : new APIError(status, headers, body);
    }
  }
}

/** `base` overlaid with `extra`, whose values win. */
function withHeaders(base: Headers, extra: HeadersInit | undefined): Headers {
  const merged = new Headers(base);
  for (const [name, value] of new Headers(extra)) merged.set(name, value);
  return merged;
}
