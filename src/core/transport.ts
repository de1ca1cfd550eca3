import ky, { isNetworkError, type KyInstance } from 'ky';
import pRetry from 'p-retry';
import { raceAbort, sleep } from './abort.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
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
 * validation. ky is used with its own retry and timeout off, because p-retry owns retries and the
 * timeout here must also cover reading the body.
 */
export class Transport {
  readonly #ky: KyInstance;
  readonly #baseUrl: string;
  readonly #apiKey: string | null;
  readonly #timeout: number;
  readonly #maxRetries: number;
  readonly #headers: Headers;
  readonly #logger: Logger | undefined;

  constructor(options: ResolvedClientOptions) {
    this.#baseUrl = options.baseUrl;
    this.#apiKey = options.apiKey;
    this.#timeout = options.timeout;
    this.#maxRetries = options.maxRetries;
    this.#logger = createLogger(options.logLevel, options.logger);
    const defaults = new Headers({ accept: 'application/json' });
    if (options.apiKey !== null) defaults.set('authorization', `Bearer ${options.apiKey}`);
    const headers = withHeaders(defaults, options.headers);
    this.#headers = headers;
    this.#ky = ky.create({ retry: 0, timeout: false, throwHttpErrors: false, fetch: options.fetch, headers });
  }

  /**
   * GETs the route and resolves to its validated body. `route` runs inside the returned promise, so a
   * parameter it refuses rejects the promise rather than throwing at the call site.
   */
  async get<T>(route: () => Route, shape: ResponseShape<T>, requestOptions?: WalkRequestOptions): Promise<T> {
    const options: WalkRequestOptions = checkRequestOptions(requestOptions);
    const { path, query } = route();
    const url = this.#baseUrl + path + (query ? queryString(query) : '');
    const { signal } = options;
    const timeout = options.timeout ?? this.#timeout;
    try {
      return await pRetry((attempt) => this.#attempt(url, shape, timeout, options, attempt), {
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

  async #attempt<T>(
    url: string,
    shape: ResponseShape<T>,
    timeout: number,
    options: WalkRequestOptions,
    attempt: number,
  ): Promise<T> {
    const timer = new AbortController();
    const timeoutId = setTimeout(() => timer.abort(), timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
    const started = this.#logger ? Date.now() : 0;
    if (this.#logger) {
      const headers = withHeaders(this.#headers, options.headers);
      this.#logger.debug(`GET ${url}`, { attempt, headers: loggableHeaders(headers) });
    }
    try {
      const response = await this.#ky(
        url,
        options.headers ? { signal, headers: options.headers } : { signal },
      );
      const text = await raceAbort(response.text(), signal);
      this.#logger?.debug(`${response.status} from GET ${url} in ${Date.now() - started} ms`);
      if (!response.ok) throw this.#apiError(response, text);
      return await parseResponse(shape, text, this.#apiKey);
    } catch (error) {
      if (error instanceof MetricError) throw error;
      if (options.signal?.aborted) throw new RequestAbortedError('aborted', { cause: options.signal.reason });
      if (timer.signal.aborted) {
        throw new TimeoutError(`GET ${url} timed out after ${timeout} ms`);
      }
      // ky wraps the runtime's own network error; the runtime's is the one worth showing.
      const cause = redactCause(isNetworkError(error) ? error.cause : error, this.#apiKey);
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ConnectionError(`GET ${url} failed: ${reason}`, { cause });
    } finally {
      clearTimeout(timeoutId);
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
