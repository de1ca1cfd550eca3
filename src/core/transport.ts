import ky, { type KyInstance } from 'ky';
import pRetry from 'p-retry';
import { Deadline, sleep } from './abort.js';
import { abortedError } from './clean-cause.js';
import type { Route } from './endpoint.js';
import {
  ConfigurationError,
  InvalidParameterError,
  MetricError,
  RateLimitError,
  type RequestAbortedError,
  TimeoutError,
} from './errors.js';
import { connectionError, statusError } from './failures.js';
import { hooksFor } from './hooks.js';
import { createLogger, type Logger } from './logger.js';
import type { ResolvedClientOptions } from './options/client-types.js';
import { callSecret, checkRequestOptions, type RequestOptions } from './options/request.js';
import { queryString } from './path.js';
import type { RequestQuota } from './quota-types.js';
import { readBody } from './read-body.js';
import { mentionsSecret, redactText, type Secret } from './redact.js';
import { fetchFollowingSameOrigin } from './redirect.js';
import { backoff, isRetryable, requestedWait } from './retry.js';
import type { AttemptTelemetry, CallTelemetry } from './telemetry-types.js';
import { extendUserAgent } from './user-agent.js';
import { parseResponse, type ResponseShape } from './validate.js';

export type { Route };

/** Request options as the core passes them along (a walk adds `onRetry`). */
export interface TransportOptions extends RequestOptions {
  /** Told of every failed attempt that is about to be retried. */
  onRetry?: ((error: Error) => void) | undefined;
  /** Whether a final failure is an answer the caller reports as a result (logged at info, not error). */
  isResult?: ((error: unknown) => boolean) | undefined;
  /** @internal Told of each attempt's quota wait, status and retry, when the client has telemetry. */
  attempts?: AttemptTelemetry | undefined;
}

/** A validated body with the response it came in (its body already read). */
export interface Answer<T> {
  readonly data: T;
  readonly response: Response;
}

/**
 * The per-call option that carries an attempt's signal past ky to the `fetch` below it. ky forwards
 * the options it does not know to `fetch`; handed to ky as `signal`, the same signal would be joined
 * to ky's own with `AbortSignal.any` on every call, for nothing: ky aborts its own only on timeouts,
 * which are off.
 */
const attemptSignal = 'scholarlyMetricsSignal';

/** The quota of a call that sends a key of its own: the client's limits are its key's. */
const apart: RequestQuota = { run: (send) => send(), pause() {}, block() {} };

/**
 * `fetch` as ky calls it: the attempt's signal taken from the forwarded options. `fetch` is called as
 * a plain function: a browser's refuses any `this` but the global object ("Illegal invocation").
 */
function fetchWithAttemptSignal(
  fetch: typeof globalThis.fetch,
  secret: string | null,
): typeof globalThis.fetch {
  const send = fetchFollowingSameOrigin(fetch, secret);
  return (input, init) => {
    const signal = (init as Record<string, unknown> | undefined)?.[attemptSignal] as AbortSignal | undefined;
    return send(input, signal ? { signal } : init);
  };
}

/** How an attempt finishes once a 2xx response is in: its body read and checked, or left unread. */
type Finish<R> = (response: Response, read: ReadText, secret: Secret) => Promise<R>;
/** Reads the attempt's body as text, within `maxResponseBytes`. */
type ReadText = (response: Response) => Promise<string>;

/**
 * Sends every request of a client: ky sends (one instance, its own retry, timeout and HTTP errors
 * off), p-retry retries, each response's zod schema validates. One {@link Deadline} per attempt
 * covers the headers and the body, read under the same signal.
 */
export class Transport {
  readonly #ky: KyInstance;
  /** The client's base URL, timeout, retries and response bound: each call's defaults. */
  readonly #client: ResolvedClientOptions;
  readonly #secret: string | null;
  readonly #logger: Logger | undefined;
  readonly #quota: RequestQuota;
  /** The client's telemetry, when it was given the `telemetry` option: resources run each call through it. */
  declare readonly telemetry: CallTelemetry | undefined;

  /** `quota` may be shared with other clients (see `MetricClient.withOptions`). */
  constructor(options: ResolvedClientOptions, quota: RequestQuota, telemetry?: CallTelemetry) {
    this.#quota = quota;
    this.telemetry = telemetry;
    this.#client = options;
    this.#secret = options.secret;
    this.#logger = createLogger(options.logLevel, options.logger, options.secret);
    const headers = new Headers({ accept: 'application/json' });
    if (options.apiKey !== null) headers.set('authorization', `Bearer ${options.apiKey}`);
    for (const [name, value] of options.headers ?? []) headers.set(name, value);
    extendUserAgent(headers, true);
    const hooks = hooksFor(options.hooks, this.#logger, options.secret);
    this.#ky = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      headers,
      fetch: fetchWithAttemptSignal(options.fetch, options.secret),
      ...(hooks && { hooks }),
    });
  }

  /**
   * GETs the route and resolves to its validated body and the response. `route` runs inside the
   * returned promise, so a parameter it refuses rejects the promise rather than throwing at the call.
   */
  get<T>(route: () => Route, shape: ResponseShape<T>, options?: TransportOptions): Promise<Answer<T>> {
    return this.#send(route, options, async (response, read, secret) => {
      const text = await read(response);
      const data = await parseResponse(shape, text, secret);
      return { data, response };
    });
  }

  /** Like {@link Transport.get}, but resolves to the 2xx response itself, its body unread and unchecked. */
  raw(route: () => Route, options?: TransportOptions): Promise<Response> {
    return this.#send(route, options, async (response) => response);
  }

  /**
   * One call, its attempts and their retries. An attempt that draws a brief 429 (one a retry would
   * wait out, whether or not this call has a retry left) pauses the quota before it gives back its
   * place there, so that no request queued behind it goes out into the same 429 (a `Retry-After: 0`
   * too: the backoff still comes); onFailedAttempt stretches the pause to the real wait. A daily limit refuses every client sharing the quota, unsent, until it
   * clears. The first attempt goes without p-retry, whose set-up is for calls that fail, where most
   * succeed; p-retry is then handed that attempt as its first (it checks the signal before anything),
   * so that every retry decision and wait is still p-retry's.
   */
  async #send<R>(route: () => Route, requestOptions: TransportOptions | undefined, finish: Finish<R>) {
    const options: TransportOptions = checkRequestOptions(requestOptions);
    // A User-Agent of the call's own is extended, as the client's is.
    if (options.headers instanceof Headers) extendUserAgent(options.headers, false);
    // A key the call's own headers send is cut from its messages beside the client's, and counts apart
    // from the client's: the client's quota neither holds it nor is paused by its 429s.
    const secret = callSecret(options.headers as Headers | undefined, this.#secret);
    const quota = secret === this.#secret ? this.#quota : apart;
    const { path, query } = this.#route(route, secret);
    const url = this.#client.baseUrl + path + (query ? queryString(query) : '');
    const { signal } = options;
    const timeout = options.timeout ?? this.#client.timeout;
    const retries = options.maxRetries ?? this.#client.maxRetries;
    const attempt = () =>
      this.#attempt(url, timeout, options, finish, secret).catch((error: unknown) => {
        // Its retries used up or not, a brief 429's wait is the key's: every request waits it out.
        if (error instanceof RateLimitError) {
          if (isRetryable(error)) quota.pause(requestedWait(error) || backoff.minTimeout);
          else quota.block(requestedWait(error) ?? 0);
        }
        throw error;
      });
    try {
      const quotaAttempt = { signal, timeout };
      const { attempts } = options;
      const send = () => quota.run(attempts?.inTurn(attempt) ?? attempt, quotaAttempt);
      signal?.throwIfAborted();
      const first = send();
      try {
        const answer = await first;
        signal?.throwIfAborted();
        return answer;
      } catch {}
      return await pRetry((number) => (number === 1 ? first : send()), {
        ...backoff,
        retries,
        signal,
        shouldRetry: ({ error }) => isRetryable(error),
        onFailedAttempt: ({ error, attemptNumber, retriesLeft, retryDelay }) => {
          if (retriesLeft === 0 || !isRetryable(error)) return;
          // p-retry sleeps its backoff next; a longer Retry-After is made up here, before it, and a
          // backoff at its cap, which p-retry no longer stretches, is stretched by up to half again.
          const stretch = retryDelay < backoff.maxTimeout ? 0 : (Math.random() * retryDelay) / 2;
          const extra = Math.max(stretch, (requestedWait(error) ?? 0) - retryDelay);
          // The other requests of the client would draw the same 429: they wait as long as this one.
          if (error instanceof RateLimitError) quota.pause(extra + retryDelay);
          this.#logger?.info(`retrying GET ${url} in ${extra + retryDelay} ms`, { reason: error.message });
          options.onRetry?.(error);
          attempts?.retrying(attemptNumber, extra + retryDelay, error);
          return extra > 0 ? sleep(extra, signal) : undefined;
        },
      });
    } catch (error) {
      if (signal?.aborted)
        throw await abortedError(`GET ${redactText(path, secret)} was aborted`, signal.reason, secret);
      const level = options.isResult?.(error) ? 'info' : 'error';
      this.#logger?.[level](`GET ${url} failed`, { error: (error as Error).message });
      throw error;
    }
  }

  /** The error of a call the caller aborted, its reason cleaned of the key (see abortedError). */
  aborted(message: string, reason: unknown): Promise<RequestAbortedError> {
    return abortedError(message, reason, this.#secret);
  }

  /** The route, or its refusal with the key cut out: a key pasted into the wrong parameter stays secret. */
  #route(route: () => Route, secret: Secret): Route {
    try {
      return route();
    } catch (error) {
      throw this.withoutKey(error, secret);
    }
  }

  /**
   * `error` with the key cut out when it refuses a parameter or an option: its message quotes the value
   * (cut short when long, so a search for the whole key misses it) and `parameter` or `option` names a
   * refused name, which may be the key pasted in the wrong place.
   */
  withoutKey(error: unknown, secret: Secret = this.#secret): unknown {
    const refused =
      error instanceof InvalidParameterError
        ? error.parameter
        : error instanceof ConfigurationError
          ? error.option
          : undefined;
    if (!secret || refused === undefined || !mentionsSecret(`${refused} ${(error as Error).message}`, secret))
      return error;
    const message = redactText((error as Error).message, secret);
    return new ((error as object).constructor as typeof ConfigurationError)(
      redactText(refused, secret),
      message,
    );
  }

  async #attempt<R>(
    url: string,
    timeout: number,
    options: TransportOptions,
    finish: Finish<R>,
    secret: Secret,
  ): Promise<R> {
    const deadline = new Deadline(timeout, options.signal);
    const started = this.#logger ? Date.now() : 0;
    // Named in messages with the key cut out (a hook or a parameter may have put it in the query),
    // when a message needs it: a successful attempt never does.
    const shown = () => redactText(url, secret);
    const limit = options.maxResponseBytes ?? this.#client.maxResponseBytes;
    const read: ReadText = (response) => readBody(response, limit, deadline, () => `GET ${shown()}`);
    try {
      // ky reads `headers: undefined` as "drop every header", so the key is left out when unset.
      const { headers } = options;
      const call: Record<string, unknown> = { [attemptSignal]: deadline.signal };
      if (headers) call.headers = headers;
      const pending = this.#ky.get(url, call);
      const response = await deadline.race(pending);
      options.attempts?.answered(response.status);
      this.#logger?.debug(`${response.status} from GET ${url} in ${Date.now() - started} ms`);
      if (!response.ok) {
        // The status is the answer, whatever becomes of its body: cut short, or stalled past the timeout.
        const text = await read(response).catch((error: unknown) => {
          if (error instanceof MetricError) throw error;
          return '';
        });
        throw statusError(response, text, secret);
      }
      return await finish(response, read, secret);
    } catch (error) {
      // An abort is turned into a RequestAbortedError once, by #send, whichever step it stopped.
      if (error instanceof MetricError || options.signal?.aborted) throw error;
      if (deadline.timedOut) throw new TimeoutError(`GET ${shown()} timed out after ${timeout} ms`);
      throw await connectionError(`GET ${shown()}`, error, secret);
    } finally {
      deadline.clear();
    }
  }
}
