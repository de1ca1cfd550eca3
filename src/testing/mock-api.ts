import { sleep } from '../core/abort.js';
import { authenticate } from './auth.js';
import { MOCK_BASE_URL, MOCK_DEFAULT_SEED, MOCK_KEYS, type MockPlan } from './constants.js';
import { handleControl } from './control.js';
import { applyCors, preflight } from './cors.js';
import { createDataset, type MutableDataset } from './dataset.js';
import { corrupt, FaultController } from './faults.js';
import { quartileOf } from './identifiers.js';
import { resolveMockApiOptions } from './mock-api-options.js';
import type { MockApi, MockApiOptions, MockRequestRecord } from './mock-api-types.js';
import { checkMockWebhookUrl } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { errorResponse, HttpError, json, withRequestId } from './responses.js';
import { routeApiPath } from './routes.js';
import { deliver, formatTimestamp } from './webhooks.js';

export type { MockApi, MockApiOptions, MockRequestRecord } from './mock-api-types.js';

const requestLogLimit = 1000;

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
  const { baseUrl: givenBaseUrl, now, control, webhooks } = resolveMockApiOptions(options);
  const baseUrl = (givenBaseUrl ?? MOCK_BASE_URL).replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const webhookFetch = webhooks.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const webhookTimeout = webhooks.timeoutMs;
  const initialUrls = webhooks.urls;

  let dataset: MutableDataset = createDataset(options.seed ?? MOCK_DEFAULT_SEED, options.sizes);
  const keys = new Map<string, MockPlan>();
  const limiter = new RateLimiter(options.limits, now);
  const faults = new FaultController(options.faults);
  const urls: string[] = [];
  const requests: MockRequestRecord[] = [];

  // Kept across reset(): an id names one request over the mock's whole life, so a log line written
  // before a reset never points at a request made after it.
  let requestCount = 0;
  const nextRequestId = (): string => `req_${String(++requestCount).padStart(6, '0')}`;

  const log = (request: Request, url: URL, response: Response, requestId: string): void => {
    if (requests.length >= requestLogLimit) requests.shift();
    requests.push({
      method: request.method,
      path: url.pathname + url.search,
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? requestId,
    });
  };

  const answer = (request: Request, url: URL): Response => {
    const path = url.pathname;
    if (!(path === basePath || path.startsWith(`${basePath}/`))) {
      throw new HttpError(404, `No endpoint at ${path}: the API lives under ${basePath}`);
    }
    const key = authenticate(request, keys);
    limiter.take(key);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, `${request.method} is not allowed: every endpoint is a GET`, {
        allow: 'GET, HEAD, OPTIONS',
      });
    }
    const body = routeApiPath(dataset, path.slice(basePath.length), url.searchParams);
    const response = json(body);
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };

  /** The API's answer to one request, faults applied; `Response.error()` when the connection drops. */
  const respond = async (request: Request, url: URL): Promise<Response> => {
    const fault = faults.take();
    if (fault.delayMs > 0) {
      try {
        await sleep(fault.delayMs, request.signal);
      } catch {
        return Response.error(); // the client gave up: nobody reads this answer
      }
    }
    if (fault.reset) return Response.error();
    try {
      let response: Response;
      if (fault.status !== undefined) {
        response =
          fault.body === undefined
            ? errorResponse(fault.status, `Injected fault: status ${fault.status}`, fault.headers)
            : json(fault.body, fault.status, fault.headers);
      } else {
        response = answer(request, url);
      }
      return fault.malformed === undefined ? response : await corrupt(response, fault.malformed);
    } catch (error) {
      return error instanceof HttpError
        ? errorResponse(error.status, error.message, error.headers)
        : errorResponse(500, `Mock API bug: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const api: MockApi = {
    baseUrl,
    basePath,
    get dataset() {
      return dataset;
    },
    keys,
    faults,
    webhooks: {
      subscribe(url) {
        checkMockWebhookUrl(url);
        if (!urls.includes(url)) urls.push(url);
        return () => api.webhooks.unsubscribe(url);
      },
      unsubscribe(url) {
        const index = urls.indexOf(url);
        if (index >= 0) urls.splice(index, 1);
      },
      get urls() {
        return [...urls];
      },
    },
    requests,

    async handle(request) {
      const url = new URL(request.url);
      const requestId = nextRequestId();
      if (request.method === 'OPTIONS') {
        return withRequestId(preflight(request, control), requestId);
      }
      if (control && url.pathname.startsWith('/__mock/')) {
        return applyCors(withRequestId(await handleControl(api, request, url), requestId));
      }
      const response = withRequestId(await respond(request, url), requestId);
      log(request, url, response, requestId);
      return applyCors(response);
    },

    fetch: async (input, init) => {
      const response = await api.handle(new Request(input, init));
      if (response.type === 'error') {
        throw new TypeError('fetch failed', {
          cause: new Error('Connection reset by the mock API (a reset fault)'),
        });
      }
      return response;
    },

    async updateScore(journalId, newScore) {
      const journal = dataset.journal(journalId);
      if (journal === undefined) throw new RangeError(`No journal with id ${journalId}`);
      if (!Number.isSafeInteger(newScore) || newScore < 0) {
        throw new RangeError(`newScore must be a non-negative integer, got ${newScore}`);
      }
      if (newScore === journal.metric_score) {
        throw new RangeError(
          `Journal ${journalId} already has score ${newScore}: an event fires only on a change`,
        );
      }
      const timestamp = formatTimestamp(now());
      const date = timestamp.slice(0, 10);
      const quartile = quartileOf(newScore);
      const older = journal.history[0]?.date === date ? journal.history.slice(1) : journal.history;
      dataset.replaceJournal({
        ...journal,
        metric_score: newScore,
        quartile,
        history: [{ date, score: newScore }, ...older],
      });
      const event = {
        event: 'score_updated',
        journal_id: journal.id,
        old_score: journal.metric_score,
        new_score: newScore,
        quartile,
        timestamp,
      } as const;
      const deliveries = await Promise.all(
        urls.map((url) => deliver(url, event, webhookFetch, webhookTimeout)),
      );
      return { event, deliveries };
    },

    reset() {
      dataset = createDataset(options.seed ?? MOCK_DEFAULT_SEED, options.sizes);
      keys.clear();
      for (const [key, plan] of Object.entries({ ...MOCK_KEYS, ...options.keys })) keys.set(key, plan);
      limiter.reset();
      faults.clear();
      faults.configure(options.faults ?? {});
      urls.splice(0, urls.length, ...initialUrls);
      requests.length = 0;
    },
  };
  api.reset();
  return api;
}
