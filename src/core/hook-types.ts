/*
 * The hook types of the public API, written out rather than re-exported from ky: ky ships ESM only, so
 * a CommonJS declaration file that imports its types fails under `module: node16` (TS1479). They are
 * ky's own, as far as the client promises them: a hook typed with ky's types is accepted as it is.
 */

/**
 * ky's normalized options of the call, as far as a hook may rely on them (ky passes more).
 *
 * @example
 * ```ts
 * const hook: BeforeRequestHook = ({ request, options }) => console.log(options.method, request.url);
 * ```
 */
export interface HookOptions {
  /** The HTTP method, `GET` for every call of this client. */
  readonly method: string;
  /** The headers ky built for the call (the client's, the call's). */
  readonly headers: Headers;
}

/**
 * What a `beforeRequest` hook gets (ky's `BeforeRequestState`).
 *
 * @example
 * ```ts
 * const hook = ({ request }: BeforeRequestState) => request.headers.set('x-trace-id', crypto.randomUUID());
 * ```
 */
export interface BeforeRequestState {
  /** The request about to be sent; set headers on it, or return a new one. */
  request: Request;
  /** ky's normalized options of the call. */
  options: HookOptions;
  /** Always 0: retries are the client's, not ky's. */
  retryCount: number;
}

/**
 * What an `afterResponse` hook gets (ky's `AfterResponseState`).
 *
 * @example
 * ```ts
 * const hook = ({ request, response }: AfterResponseState) => console.log(response.status, request.url);
 * ```
 */
export interface AfterResponseState {
  /** The request that was sent. */
  request: Request;
  /** ky's normalized options of the call. */
  options: HookOptions;
  /** A clone of the response: reading its body leaves the client's copy unread. */
  response: Response;
  /** Always 0: retries are the client's, not ky's. */
  retryCount: number;
}

/**
 * ky's `ky.retry()` marker, which an `afterResponse` hook may return; the client retries nothing on it.
 * Not exported: users write the hook ({@link AfterResponseHook}).
 */
export interface RetryMarkerLike {
  readonly options?: unknown;
}

// Method syntax makes the parameter bivariant: a hook written against ky's richer state types (its
// `KyRequest`, its full options) is accepted, as it is by ky itself.
type Bivariant<State, Result> = { hook(state: State): Result }['hook'];

/**
 * A hook run before each attempt (ky's `BeforeRequestHook`): it may change the request, return a new
 * `Request`, or return a `Response` to use as the server's answer.
 *
 * @example
 * ```ts
 * import type { BeforeRequestHook } from 'scholarly-metrics';
 *
 * const sign: BeforeRequestHook = ({ request }) => request.headers.set('x-signature', 'abc');
 * ```
 */
export type BeforeRequestHook = Bivariant<
  BeforeRequestState,
  // biome-ignore lint/suspicious/noConfusingVoidType: ky's own result type; a hook may return nothing.
  Request | Response | void | Promise<Request | Response | void>
>;

/**
 * A hook run on each attempt's response (ky's `AfterResponseHook`): it may return a new `Response`
 * that replaces the server's.
 *
 * @example
 * ```ts
 * import type { AfterResponseHook } from 'scholarly-metrics';
 *
 * const log: AfterResponseHook = ({ request, response }) => console.log(response.status, request.url);
 * ```
 */
export type AfterResponseHook = Bivariant<
  AfterResponseState,
  // biome-ignore lint/suspicious/noConfusingVoidType: ky's own result type; a hook may return nothing.
  Response | RetryMarkerLike | void | Promise<Response | RetryMarkerLike | void>
>;

/**
 * ky's own hooks, run on every attempt: a retried request runs them again.
 *
 * - `beforeRequest` gets `{ request, options, retryCount }` and may return a new `Request` (to add
 *   or change headers, sign the request, rewrite its URL), or a `Response`, which is then used as the
 *   server's answer (a cache, a test double): it is checked like any other.
 * - `afterResponse` gets the same plus `response` (a clone) and may return a new `Response` that
 *   replaces the server's: its status and body are then what the client maps and validates.
 *
 * Retries stay the client's (`maxRetries`): ky's `retryCount` is always 0 here, and a hook's
 * `ky.retry()` marker retries nothing. An error a hook throws fails the call with a `MetricError`
 * whose `cause` is that error, and is not retried.
 *
 * @example
 * ```ts
 * import { type ClientHooks, MetricClient } from 'scholarly-metrics';
 *
 * const hooks: ClientHooks = {
 *   beforeRequest: [({ request }) => request.headers.set('x-trace-id', crypto.randomUUID())],
 *   afterResponse: [({ request, response }) => console.log(response.status, request.url)],
 * };
 * const client = new MetricClient({ apiKey, baseUrl, hooks });
 * ```
 */
export interface ClientHooks {
  /** Run before each attempt is sent, in order. */
  beforeRequest?: readonly BeforeRequestHook[] | undefined;
  /** Run on each attempt's response, in order. */
  afterResponse?: readonly AfterResponseHook[] | undefined;
}
