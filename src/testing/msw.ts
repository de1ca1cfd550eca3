import { type HttpHandler, http } from 'msw';
import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';

/**
 * msw request handlers that serve the mock at `api.baseUrl` (default {@link MOCK_BASE_URL}), for
 * `setupServer` (Node) and `setupWorker` (browser). A `reset` fault becomes a network error.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const api = createMockApi();
 * const server = setupServer(...mockHandlers(api));
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 */
export function mockHandlers(apiOrOptions: MockApi | MockApiOptions = {}): HttpHandler[] {
  const api = isMockApi(apiOrOptions) ? apiOrOptions : createMockApi(apiOrOptions);
  return [http.all(`${api.baseUrl}/*`, ({ request }) => api.handle(request))];
}

function isMockApi(value: MockApi | MockApiOptions): value is MockApi {
  return typeof (value as Partial<MockApi>).handle === 'function';
}
