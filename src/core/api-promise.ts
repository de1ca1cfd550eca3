import { requestIdOf } from './errors.js';
import type { Answer } from './transport.js';

/**
 * What `.withResponse()` resolves to: the validated data, the response it came in (its body already
 * read) and the server's request id.
 *
 * @example
 * ```ts
 * import type { Journal, WithResponse } from 'scholarly-metrics';
 *
 * const result: WithResponse<Journal[]> = await client.journals.list().withResponse();
 * console.log(result.data.length, result.response.status, result.requestId ?? 'no request id');
 * ```
 */
export interface WithResponse<T> {
  readonly data: T;
  readonly response: Response;
  /** From `X-Request-Id` (or `Request-Id`); `undefined` when the server sent neither. */
  readonly requestId: string | undefined;
  /**
   * Where the answer came from: `'hit'` the cache, `'stale'` the cache past its lifetime because the
   * API failed (`staleIfError`), `'miss'` the API through the cache (and kept, unless the store failed
   * or the answer may not be kept), `'off'` the API, no cache involved.
   */
  readonly cacheStatus: CacheStatus;
}

/**
 * Where an answer came from; see {@link WithResponse.cacheStatus}.
 *
 * @example
 * ```ts
 * import type { CacheStatus } from 'scholarly-metrics';
 *
 * const { cacheStatus }: { cacheStatus: CacheStatus } = await client.subjects.list().withResponse();
 * cacheStatus; // → 'off'
 * ```
 */
export type CacheStatus = 'hit' | 'stale' | 'miss' | 'off';

/**
 * What `.withResponse()` gives for `answer`, `data` in place of its body (a page made of it): the
 * cache status is the cache's to set, `'off'` without one.
 */
export function withResponseOf<T>(answer: Answer<unknown>, data: T): WithResponse<T> {
  const { response } = answer;
  return {
    data,
    response,
    requestId: requestIdOf(response.headers),
    cacheStatus: (answer as { cacheStatus?: CacheStatus }).cacheStatus ?? 'off',
  };
}

/**
 * What every method that is not paginated returns: a `Promise` of the validated data that can also
 * give the response around it. The request starts at once, as with any promise, unless
 * `.asResponse()` is called on it straight away (then only the raw request is sent); awaiting it
 * twice, or awaiting it and calling `.withResponse()`, sends one request.
 *
 * @example
 * ```ts
 * const journal = await client.journals.get(42);
 * const { data, response, requestId } = await client.journals.get(42).withResponse();
 * console.log(data.name, response.status, requestId);
 * ```
 */
export class APIPromise<T> extends Promise<T> {
  // Derived promises (`.then` and friends) are plain ones: only the method's own is lazy.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #answer: () => Promise<Answer<T>>;
  readonly #raw: () => Promise<Response>;
  #answered: Promise<Answer<T>> | undefined;
  #data: Promise<T> | undefined;
  #rawOnly = false;
  /** Settles when this call has started: calls start in the order they were made, however read. */
  readonly #turn: Promise<void>;

  /** Made by the client's methods: `answer` sends and validates, `raw` sends and reads nothing. */
  constructor(answer: () => Promise<Answer<T>>, raw: () => Promise<Response>) {
    // The base promise never settles: every way of reading this one goes through `then` below.
    super(() => {});
    this.#answer = answer;
    this.#raw = raw;
    // Started after the calling code's synchronous part, so that `.asResponse()` chained on the
    // call can still ask for the raw request alone; a call read at once (awaited) waits for it too,
    // or it would be sent before the calls made earlier in the same tick.
    this.#turn = Promise.resolve().then(() => {
      if (!this.#rawOnly) this.#start();
    });
  }

  #start(): Promise<Answer<T>> {
    if (this.#answered === undefined) {
      this.#answered = this.#turn.then(this.#answer);
      // Never awaited, a failed request must not surface as an unhandled rejection; whoever does
      // await it still gets the error.
      this.#answered.catch(() => {});
    }
    return this.#answered;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise's own method, made lazy.
  override then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.#data ??= this.#start().then((answer) => answer.data);
    return this.#data.then(onFulfilled, onRejected);
  }

  override catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /**
   * The data with the response it came in and its request id.
   *
   * @example
   * ```ts
   * const { data, response, requestId } = await client.subjects.list().withResponse();
   * console.log(data.length, response.headers.get('content-type'), requestId);
   * ```
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#start().then((answer) => withResponseOf(answer, answer.data));
  }

  /**
   * The 2xx `Response` itself, its body unread and not validated: for streaming it elsewhere, or
   * reading headers only. Retries and errors are as for the data; a non-2xx still rejects. It always
   * goes to the API: the cache keeps validated answers, and this one is not. Chain it
   * on the call (`client.journals.get(42).asResponse()`) so that the validated request is not sent.
   *
   * @example
   * ```ts
   * const response = await client.journals.list().asResponse();
   * console.log(response.status, response.headers.get('x-request-id'));
   * const raw = await response.text(); // yours to read (or cancel)
   * ```
   */
  asResponse(): Promise<Response> {
    this.#rawOnly = true;
    return this.#turn.then(this.#raw);
  }
}
