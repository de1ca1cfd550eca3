import { ConfigurationError } from '../errors.js';
import type { HeadersInput, HeadersLike } from '../headers.js';
import type { Secret } from '../redact.js';
import { checkDuration, checkInteger, checkObject, type OptionNames } from './checks.js';

/**
 * Options every method takes as its last argument.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const journal = await client.journals.get(42, {
 *   signal: controller.signal,
 *   timeout: 5_000,
 *   maxRetries: 0, // an interactive caller would rather fail fast than wait out a backoff
 *   headers: { 'x-request-id': crypto.randomUUID() },
 * });
 * ```
 */
export interface RequestOptions {
  /** Cancels the request, its retries and their backoff sleeps. */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds one attempt may take, reading the whole body included.
   * @default the client's `timeout`
   */
  timeout?: number | undefined;
  /**
   * Retries for this request.
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /** Extra headers for this request. */
  headers?: HeadersInput | undefined;
  /**
   * With a client cache: `'refresh'` sends the request and keeps its answer in place of the kept
   * one; `false` sends it and neither reads nor writes the cache. Without a client cache, ignored
   * (any other value is refused all the same).
   * @default read the cache, send on a miss
   */
  cache?: 'refresh' | false | undefined;
  /**
   * The most bytes of this response's body the client reads.
   * @default the client's `maxResponseBytes`
   */
  maxResponseBytes?: number | undefined;
}

/** The names of {@link RequestOptions}, at run time: a call refuses any other in their place. */
export const requestOptionNames: OptionNames<RequestOptions> = {
  signal: true,
  timeout: true,
  maxRetries: true,
  headers: true,
  cache: true,
  maxResponseBytes: true,
};

/** The most retries a client or a call may ask for. */
export const maxRetriesBound = 10;
/** 32 MiB: see `maxResponseBytes`. */
export const defaultMaxResponseBytes = 32 * 1024 * 1024;
/** V8's longest string: a body decoded as text (one UTF-16 unit per byte at most) always fits. */
const maxResponseBytesBound = 0x1fffffe8;

export const checkTimeout = (value: unknown) => checkDuration('timeout', value);
export const checkMaxRetries = (value: unknown) => checkInteger('maxRetries', value, 0, maxRetriesBound);
export const checkMaxResponseBytes = (value: unknown) =>
  checkInteger('maxResponseBytes', value, 1, maxResponseBytesBound);

/** Checks a call's options when the call is made; the client's own were checked at construction. */
export function checkRequestOptions(options: RequestOptions | undefined): RequestOptions {
  if (options === undefined) return {};
  checkObject('options', options);
  checkTimeout(options.timeout);
  checkMaxRetries(options.maxRetries);
  checkMaxResponseBytes(options.maxResponseBytes);
  // Checked with or without a client cache: a client without one ignores a valid mode, not a wrong one.
  const { cache, signal } = options;
  if (cache !== undefined && cache !== false && cache !== 'refresh') {
    throw new ConfigurationError('cache', "`cache` must be 'refresh' or false");
  }
  // throwIfAborted, as the transport calls it, and the listeners, as p-retry calls them.
  const given = signal as Record<string, unknown> | null | undefined;
  const methods = ['throwIfAborted', 'addEventListener', 'removeEventListener'];
  if (given !== undefined && !methods.every((name) => typeof given?.[name] === 'function')) {
    throw new ConfigurationError('signal', '`signal` must be an AbortSignal');
  }
  return options.headers === undefined ? options : { ...options, headers: checkHeaders(options.headers) };
}

/** Headers a `Headers` object accepts; anything else is refused here, before a request exists. */
export function checkHeaders(value: HeadersInput | undefined, option = 'headers'): Headers | undefined {
  if (value === undefined) return undefined;
  try {
    if (value === null || typeof value !== 'object') throw new TypeError('not an object');
    // A HeadersLike that is not iterable (not a runtime's Headers) gives its entries through forEach:
    // `new Headers` would read it as a record of its own properties, that is, of nothing.
    if (!(Symbol.iterator in value) && typeof (value as HeadersLike).forEach === 'function') {
      const copy = new Headers();
      (value as HeadersLike).forEach((headerValue, name) => {
        copy.append(name, headerValue);
      });
      return copy;
    }
    return new Headers(value as HeadersInit);
  } catch {
    // The runtime's message quotes the offending value, which may be a credential: leave it out.
    throw new ConfigurationError(option, `\`${option}\` must be valid HTTP header names and values`);
  }
}

/**
 * The credential checked `headers` send, as secret as an API key: what their `Authorization` says
 * after its scheme (`Bearer`, `Token`, `Basic`…), none for a `Bearer` with nothing after it. It is
 * the one sent: a call's headers override the client's, and the client's its `apiKey`.
 */
export const sentCredential = (headers: Headers | undefined) =>
  headers?.get('authorization')?.replace(/^\S+\s+|^bearer$/i, '') || undefined;

/** What a call keeps secret: the key its own `headers` send beside its client's, or the client's alone. */
export function callSecret(headers: Headers | undefined, client: string | null): Secret {
  const own = sentCredential(headers);
  return own === undefined || own === client ? client : [own, client ?? own];
}

/** The upper bound of `prefetch`: enough to hide latency, too few to look like a flood. */
export const maxPrefetch = 8;

/** A walk's `prefetch` (see `PageRequestOptions`), 1 when left out. */
export function checkPrefetch(value: unknown): number {
  return checkInteger('prefetch', value, 0, maxPrefetch) ?? 1;
}
