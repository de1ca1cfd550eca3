/**
 * `scholarly-metrics/testing`: a deterministic mock of the whole Scholarly Metrics API v1, for tests,
 * examples and demos without a key or a network.
 *
 * - {@link createMockApi}: the core, answering Fetch `Request`s (also usable as a client's `fetch`)
 * - {@link mockHandlers}: msw handlers for `setupServer` / `setupWorker` (msw is an optional peer)
 * - {@link startMockServer}: a real HTTP server on 127.0.0.1
 *
 * @example
 * ```ts
 * import { MetricClient } from 'scholarly-metrics';
 * import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from 'scholarly-metrics/testing';
 *
 * const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: createMockApi().fetch });
 * ```
 *
 * @module
 */
export {
  MOCK_API_KEY,
  MOCK_BASE_URL,
  MOCK_DEFAULT_SEED,
  MOCK_DOIS,
  MOCK_ELITE_API_KEY,
  MOCK_KEYS,
  MOCK_NO_ACCESS_API_KEY,
  MOCK_SHOW_VALUES,
  type MockPlan,
} from './constants.js';
export { type MockControl, mockControl } from './control-client.js';
export type {
  MockAuthor,
  MockCountry,
  MockDataset,
  MockDatasetSizes,
  MockJournal,
  MockPaper,
  MockScoreEntry,
  MockSubject,
} from './dataset-types.js';
export {
  AUTHOR_SORTS,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  type MockScoreUpdatedEvent,
  PAPER_SORTS,
  SHOW_VALUES,
} from './deprecated.js';
export { FaultController, MOCK_MAX_DELAY_MS, type MockFault, type MockFaultOptions } from './faults.js';
export { MOCK_MAX_SIZES } from './generate.js';
export {
  createMockApi,
  type MockApi,
  type MockApiOptions,
  type MockRequestRecord,
} from './mock-api.js';
export { mockHandlers } from './msw.js';
export { MOCK_DEFAULT_PER_PAGE, MOCK_MAX_PER_PAGE } from './params.js';
export type { MockLimits, MockWindowLimit } from './rate-limit.js';
export type { MockErrorBody } from './responses.js';
export { MOCK_AUTHOR_SORTS, MOCK_PAPER_SORTS } from './search.js';
export { type MockServer, type MockServerOptions, startMockServer } from './server.js';
export type { MockScoreUpdate, MockWebhookDelivery, MockWebhookOptions } from './webhooks.js';
