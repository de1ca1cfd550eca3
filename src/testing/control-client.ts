import { ConfigurationError, type MetricError, ResponseValidationError } from '../core/errors.js';
import { connectionError, statusError } from '../core/failures.js';
import { checkFunction } from '../core/options/checks.js';
import { checkJsonValue } from './fault-checks.js';
import type { MockFault } from './faults.js';
import { httpOrigin } from './urls.js';
import type { MockScoreUpdate } from './webhooks.js';

/**
 * Drives a mock server started with `control: true` (the CLI's default) from another process.
 *
 * @example
 * ```ts
 * const control = mockControl(process.env.METRIC_BASE_URL!);
 * await control.subscribe('http://127.0.0.1:8080/hooks');
 * const { event, deliveries } = await control.updateScore(7, 81);
 * ```
 */
export interface MockControl {
  /** As `api.updateScore`: changes the score and delivers `score_updated`. */
  updateScore(journalId: number, newScore: number): Promise<MockScoreUpdate>;
  /** Adds a webhook URL; resolves to the subscribed URLs. */
  subscribe(url: string): Promise<readonly string[]>;
  /** Removes a webhook URL; resolves to the subscribed URLs. */
  unsubscribe(url: string): Promise<readonly string[]>;
  /** Queues a fault, as `api.faults.next`; resolves to the number of requests still to be hit. */
  fault(fault: MockFault): Promise<number>;
  /** As `api.faults.clear()`: drops the queued faults. */
  clearFaults(): Promise<void>;
  /** As `api.webhooks.urls`: resolves to the subscribed URLs. */
  webhooks(): Promise<readonly string[]>;
  /** As `api.reset()`. */
  reset(): Promise<void>;
}

/**
 * A {@link MockControl} for the mock server at `url` (its base URL, or any URL on its origin).
 *
 * @param url - the server's base URL, as printed by the CLI or given by `startMockServer`.
 * @param fetchImpl - the fetch that calls the control endpoints. @default globalThis.fetch
 *
 * @example
 * ```ts
 * const server = await startMockServer({ control: true });
 * await mockControl(server.url).fault({ status: 503 });
 * ```
 */
export function mockControl(url: string, fetchImpl: typeof globalThis.fetch = globalThis.fetch): MockControl {
  const origin = controlOrigin(url);
  checkFunction('fetchImpl', fetchImpl);
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    let response: Response;
    let text: string;
    const payload = serialize(path, body);
    try {
      response = await fetchImpl(`${origin}/__mock/${path}`, {
        method,
        // Every POST says JSON, body or not: the server refuses other POSTs (they could come from a page).
        headers: method === 'POST' || body !== undefined ? { 'content-type': 'application/json' } : {},
        body: payload,
      });
      text = await response.text();
    } catch (error) {
      throw await connectionError(`Mock control ${method} ${origin}/__mock/${path}`, error, null);
    }
    const parsed = parseAnswer(text);
    if (parsed === notJson || !response.ok) {
      throw refusal(`Mock control ${method} /__mock/${path} failed`, origin, response, text, parsed);
    }
    return parsed;
  };
  return {
    updateScore: async (journalId, newScore) =>
      (await call('POST', 'score', { journal_id: journalId, new_score: newScore })) as MockScoreUpdate,
    subscribe: async (hookUrl) =>
      ((await call('POST', 'webhooks', { url: hookUrl })) as { urls: string[] }).urls,
    unsubscribe: async (hookUrl) =>
      ((await call('DELETE', 'webhooks', { url: hookUrl })) as { urls: string[] }).urls,
    fault: async (fault) => ((await call('POST', 'faults', fault)) as { pending: number }).pending,
    clearFaults: async () => {
      await call('DELETE', 'faults');
    },
    webhooks: async () => ((await call('GET', 'webhooks')) as { urls: string[] }).urls,
    reset: async () => {
      await call('POST', 'reset');
    },
  };
}

/**
 * The SDK's error for an answer that is not the control endpoint's success: the APIError for its
 * status (its message the server's, escaped and cut short), or a ConfigurationError naming the option
 * when the server says which option it refused, as the same call in-process would throw.
 */
function refusal(
  what: string,
  origin: string,
  response: Response,
  text: string,
  parsed: unknown,
): MetricError {
  if (parsed === notJson) {
    // Another server on that port, or a proxy's error page: a bare SyntaxError would not say so.
    const message = `${what}: status ${response.status} with a body that is not JSON; is ${origin} the mock server?`;
    if (response.ok) return new ResponseValidationError(message, [], text);
    return Object.assign(statusError(response, text, null), { message });
  }
  const error = statusError(response, text, null);
  const message = `${what}: ${error.message}`;
  const option = (parsed as { option?: unknown } | undefined)?.option;
  if (response.status === 400 && typeof option === 'string' && /^[\w.[\]-]{1,100}$/.test(option)) {
    return new ConfigurationError(option, message);
  }
  return Object.assign(error, { message });
}

/**
 * The origin of `url`, an absolute http(s) URL: the server's base URL, its origin or any URL on it
 * (a query or a fragment is dropped with the path). Not quoted when refused: it may carry credentials.
 */
function controlOrigin(url: unknown): string {
  const origin = httpOrigin(url);
  if (origin === undefined) {
    throw new ConfigurationError(
      'url',
      "url must be the mock server's absolute http(s) URL, such as http://127.0.0.1:4010/api/v1",
    );
  }
  return origin;
}

/**
 * The request body as JSON: a fault holding what JSON cannot say (a BigInt, or a function or a symbol,
 * which JSON would drop without a word) is the caller's mistake. Its body is checked first, so that
 * the refusal names `fault.body` as the same fault in-process does.
 */
function serialize(path: string, body: unknown): string | undefined {
  if (path !== 'faults') return checkJsonValue(path, body);
  checkJsonValue('fault.body', (body as MockFault | null | undefined)?.body);
  return checkJsonValue('fault', body);
}

const notJson = Symbol('not JSON');

function parseAnswer(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}
