import { MOCK_BASE_URL, MOCK_DEFAULT_SEED, MOCK_KEYS, type MockPlan } from './constants.js';
import { handleControl } from './control.js';
import { applyCors, preflight } from './cors.js';
import { createDataset, type MutableDataset } from './dataset.js';
import { FaultController } from './faults.js';
import { resolveMockApiOptions } from './mock-api-options.js';
import type { MockApi, MockApiOptions } from './mock-api-types.js';
import { RateLimiter } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { createResponder } from './respond.js';
import { errorResponse, withRequestId } from './responses.js';
import { type Router, routeApiPath } from './routes.js';
import { updateScoreIn } from './score-update.js';
import { Subscribers } from './subscribers.js';

export type { MockApi, MockApiOptions, MockRequestRecord } from './mock-api-types.js';

/** Each mock's request log, for the answers its HTTP server makes without the core. */
const logs = new WeakMap<MockApi, RequestLog>();

/** The mocks that serve the control endpoints: only theirs are guarded by the HTTP server. */
const withControl = new WeakSet<MockApi>();

/** Whether `api` serves the control endpoints (`control: true`). */
export const servesControl = (api: MockApi): boolean => withControl.has(api);

/**
 * An answer the HTTP server makes itself (a method `Request` cannot carry, a body past the cap, a
 * control call it refuses), given what every answer of `api` carries: a request id, and the CORS
 * headers unless `cors` is false.
 */
export function serverAnswer(api: MockApi, response: Response, cors = true): Response {
  const requestId = logs.get(api)?.nextId();
  const identified = requestId === undefined ? response : withRequestId(response, requestId);
  return cors ? applyCors(identified) : identified;
}

/**
 * Creates a mock of the API over a deterministic dataset.
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 * import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from 'scholarly-metrics/testing';
 *
 * const api = createMockApi();
 * const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: api.fetch });
 * const journals = await client.journals.list();
 * ```
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return createMockApiOver(routeApiPath, options);
}

/** {@link createMockApi} answering the API's paths with `router` (a test adds an endpoint this way). */
export function createMockApiOver(router: Router, options: MockApiOptions = {}): MockApi {
  const { baseUrl: givenBaseUrl, now, control, webhooks } = resolveMockApiOptions(options);
  // As a request's URL writes it (`http://localhost:80` is `http://localhost`), which msw matches.
  const baseUrl = new URL(givenBaseUrl ?? MOCK_BASE_URL).href.replace(/(?<!\/)\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/(?<!\/)\/+$/, '');
  let dataset: MutableDataset = createDataset(options.seed ?? MOCK_DEFAULT_SEED, options.sizes);
  const start = startOf(options);
  const keys = new Map<string, MockPlan>();
  const limiter = new RateLimiter(options.limits, now);
  const faults = new FaultController(options.faults);
  const subscribers = new Subscribers(webhooks.urls, webhooks.fetch, webhooks.timeoutMs);
  const log = new RequestLog();
  let resets = 0;
  const respond = createResponder({
    basePath,
    keys,
    limiter,
    faults,
    router,
    dataset: () => dataset,
    resets: () => resets,
  });

  const api: MockApi = {
    baseUrl,
    basePath,
    get dataset() {
      return dataset;
    },
    keys,
    faults,
    webhooks: subscribers,
    requests: log.records,

    handle: (request) => answer(api, request, { log, control, respond, resets: () => resets }),

    fetch: (input, init) => fetchFrom(api, input, init),

    async updateScore(journalId, newScore) {
      const event = updateScoreIn(dataset, journalId, newScore, now());
      return { event, deliveries: await subscribers.deliver(event) };
    },

    reset() {
      resets++;
      dataset = createDataset(start.seed ?? MOCK_DEFAULT_SEED, start.sizes);
      keys.clear();
      for (const [key, plan] of Object.entries({ ...MOCK_KEYS, ...start.keys })) keys.set(key, plan);
      limiter.reset();
      faults.clear();
      faults.configure(start.faults);
      subscribers.reset();
      log.clear();
    },
  };
  api.reset();
  logs.set(api, log);
  if (control) withControl.add(api);
  return api;
}

/** What reset() restores, once checked: the options as they are now, whatever the caller's object becomes. */
function startOf(options: MockApiOptions) {
  const { seed, sizes, keys, faults } = options;
  return { seed, sizes: { ...sizes }, keys: { ...keys }, faults: { ...faults } };
}

/** What {@link answer} reads of a mock besides the mock itself. */
interface AnswerParts {
  readonly log: RequestLog;
  readonly control: boolean;
  readonly respond: ReturnType<typeof createResponder>;
  /** The mock's resets so far: a request answered after one it began before is not logged. */
  readonly resets: () => number;
}

/** One request to `api`: a preflight, a control call, or a call of the API, which alone is logged. */
async function answer(
  api: MockApi,
  request: Request,
  { log, control, respond, resets }: AnswerParts,
): Promise<Response> {
  const begun = resets();
  const url = new URL(request.url);
  const requestId = log.nextId();
  if (request.method === 'OPTIONS') {
    return withRequestId(preflight(request, control), requestId);
  }
  if (url.pathname.startsWith('/__mock/')) {
    const answered = control ? await handleControl(api, request, url) : controlOff(url);
    // No body answers a HEAD, a refusal included, as the HTTP server sends none.
    const reply =
      request.method === 'HEAD' && answered.body !== null ? new Response(null, answered) : answered;
    return applyCors(withRequestId(reply, requestId));
  }
  const response = withRequestId(await respond(request, url), requestId);
  if (resets() === begun) log.add(request, url, response, requestId);
  return applyCors(response);
}

/** A control call to a mock made without `control`: `startMockServer` leaves them off unless asked. */
function controlOff(url: URL): Response {
  return errorResponse(
    404,
    `No endpoint at ${url.pathname}: the control endpoints are off; create the mock with control: true (the CLI serves them unless --no-control)`,
  );
}

/**
 * The mock as a `fetch`: a reset fault rejects as a dropped connection does, and an aborted signal
 * rejects with its reason, as fetch does, whether it was aborted before the call or during a delay.
 */
async function fetchFrom(api: MockApi, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  // fetch never sends a request whose signal is already aborted, so the mock never sees it.
  request.signal.throwIfAborted();
  const response = await api.handle(request);
  request.signal.throwIfAborted();
  if (response.type === 'error') {
    throw new TypeError('fetch failed', {
      cause: new Error('Connection reset by the mock API (a reset fault)'),
    });
  }
  return response;
}
