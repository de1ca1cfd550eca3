import type { HttpHandler } from 'msw';
import { MetricError } from '../core/errors.js';
import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';
import { loadMsw } from './msw-module.js';

/**
 * msw request handlers that serve the mock at `api.baseUrl` (default {@link MOCK_BASE_URL}), for
 * `setupServer` (Node) and `setupWorker` (browser). A `reset` fault becomes a network error.
 *
 * msw is an optional peer dependency: the rest of `scholarly-metrics/testing` works without it.
 *
 * @throws {MetricError} when msw cannot be loaded (not installed: `npm install -D msw`).
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const api = createMockApi();
 * const server = setupServer(...mockHandlers(api));
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 */
export function mockHandlers(apiOrOptions: MockApi | MockApiOptions = {}): HttpHandler[] {
  const { http } = msw();
  const api = isMockApi(apiOrOptions) ? apiOrOptions : createMockApi(apiOrOptions);
  return [http.all(`${api.baseUrl}/*`, ({ request }) => api.handle(request))];
}

function msw(): ReturnType<typeof loadMsw> {
  try {
    return loadMsw();
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new MetricError(
      `mockHandlers() needs msw, an optional peer dependency of scholarly-metrics: install it with \`npm install -D msw\` (loading msw failed: ${reason})`,
      { cause },
    );
  }
}

function isMockApi(value: MockApi | MockApiOptions): value is MockApi {
  return typeof (value as Partial<MockApi>).handle === 'function';
}
