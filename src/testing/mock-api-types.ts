import type { MockPlan } from './constants.js';
import type { MockDataset, MockDatasetSizes } from './dataset-types.js';
import type { FaultController, MockFaultOptions } from './faults.js';
import type { MockLimits } from './rate-limit.js';
import type { MockScoreUpdate, MockWebhookOptions } from './webhooks.js';

/**
 * Options of {@link createMockApi} (also accepted by `mockHandlers` and `startMockServer`).
 *
 * @example
 * ```ts
 * createMockApi({ seed: 7, sizes: { papers: 2_000 }, limits: { perMinute: 60 }, now: () => fakeNow });
 * ```
 */
export interface MockApiOptions {
  /** Seed of the dataset: same seed and sizes, same data. @default 42 */
  readonly seed?: number | undefined;
  /** How many records to generate. @default { journals: 400, papers: 30000, authors: 3000, subjects: 25, countries: 60 } */
  readonly sizes?: MockDatasetSizes | undefined;
  /** Base URL the msw handlers answer; its path (`/api/v1`) is where the API lives on every adapter. @default MOCK_BASE_URL */
  readonly baseUrl?: string | undefined;
  /** Extra API keys and their plans, added to `MOCK_KEYS`. @default {} */
  readonly keys?: Readonly<Record<string, MockPlan>> | undefined;
  /** Per-key request limits (per minute, per UTC day, per window of any length); 429 with `Retry-After` beyond them. @default no limits */
  readonly limits?: MockLimits | undefined;
  /** Random faults on every request. @default none */
  readonly faults?: MockFaultOptions | undefined;
  /** Where `score_updated` events go. @default { urls: [] } */
  readonly webhooks?: MockWebhookOptions | undefined;
  /**
   * The clock, in ms since the epoch: rate-limit windows and event timestamps read it. A time outside
   * the years 0000–9999, which no API timestamp can write, is a `ConfigurationError`. @default Date.now
   */
  readonly now?: (() => number) | undefined;
  /**
   * Serve the control endpoints under `/__mock/` (change a score, subscribe a webhook, queue a fault)
   * so another process can drive the mock over HTTP. @default false
   */
  readonly control?: boolean | undefined;
}

/**
 * Options of {@link startMockServer}: where to listen, plus the mock's own options.
 *
 * @example
 * ```ts
 * await startMockServer({ port: 4010, seed: 7, limits: { perMinute: 100 } });
 * ```
 */
export interface MockServerOptions extends MockApiOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  readonly port?: number | undefined;
  /** Interface to bind. Keep it on loopback: the mock accepts well-known keys. @default '127.0.0.1' */
  readonly host?: string | undefined;
  /** Serve this mock instead of creating one from the options (then only `port`, `host` and `controlOrigins` apply). @default undefined */
  readonly api?: MockApi | undefined;
  /**
   * Origins of web pages allowed to call the `/__mock/` control endpoints, e.g. the dev server of a
   * browser test (`http://localhost:5173`). Others are refused, so that a page you happen to open
   * cannot reset the mock or subscribe URLs to its webhooks. `'*'` trusts every page: only for a test
   * set-up whose page origin is not known in advance (`Host` is still checked). The API endpoints
   * answer every origin whatever this says.
   * @default [] (only the mock's own origin)
   */
  readonly controlOrigins?: readonly string[] | undefined;
}

/**
 * One request the mock answered, for assertions such as "the loop stopped fetching".
 *
 * @example
 * ```ts
 * expect(api.requests.map((r) => r.path)).toEqual(['/api/v1/papers?q=x&page=1']);
 * ```
 */
export interface MockRequestRecord {
  readonly method: string;
  /** Path and query as received, e.g. `/api/v1/papers?q=neural&page=2`. */
  readonly path: string;
  /** The status sent; 0 when the connection was dropped by a `reset` fault. */
  readonly status: number;
  /**
   * The id sent in this answer's `X-Request-Id` (assigned even when a `reset` fault drops the
   * connection before anything is sent). See {@link MockApi.handle} for the format.
   */
  readonly requestId: string;
}

/**
 * A running mock of the whole API: one `handle(request)` that every adapter calls.
 *
 * @example
 * ```ts
 * const api = createMockApi();
 * const response = await api.fetch(`${MOCK_BASE_URL}/journals/1`, {
 *   headers: { authorization: `Bearer ${MOCK_API_KEY}` },
 * });
 * ```
 */
export interface MockApi {
  /** The base URL the msw handlers answer (ends in the API's base path). */
  readonly baseUrl: string;
  /** The path prefix of the API, `/api/v1` by default. */
  readonly basePath: string;
  /** This mock's data. Journals reflect `updateScore`; everything else is shared and frozen. */
  readonly dataset: MockDataset;
  /** Accepted keys and their plans; change it to revoke or add keys. */
  readonly keys: Map<string, MockPlan>;
  /** Queue one-shot faults, or reconfigure random ones. */
  readonly faults: FaultController;
  /** URLs that receive `score_updated` events. */
  readonly webhooks: {
    /** Adds a URL; returns a function that removes it. */
    subscribe(url: string): () => void;
    unsubscribe(url: string): void;
    readonly urls: readonly string[];
  };
  /** The last 1,000 API requests, oldest first, each with the `requestId` its answer carried. */
  readonly requests: readonly MockRequestRecord[];
  /**
   * Answers a Fetch `Request`. A dropped connection is `Response.error()`. Every answer (success,
   * error, injected fault, preflight, control call) carries `X-Request-Id`: `req_` and a counter of the
   * requests this mock has received, six digits or more (`req_000001`, `req_000002`…). The count is
   * per mock and survives `reset()`, so ids are unique over the mock's life and the same test run
   * gives the same ids. A fault's own `x-request-id` header replaces it.
   */
  handle(request: Request): Promise<Response>;
  /** A `fetch` served by this mock, without msw or sockets: pass it as the client's `fetch`. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * Changes a journal's score (history and quartile follow) and POSTs `score_updated` to every
   * subscribed URL. Rejects with a `RangeError` for an unknown journal, a score that is not a
   * non-negative integer, or an unchanged score (the service fires only on a change).
   */
  updateScore(journalId: number, newScore: number): Promise<MockScoreUpdate>;
  /** Back to the initial state: scores, keys, limits' counts, fault queue, subscriptions and request log. */
  reset(): void;
}
