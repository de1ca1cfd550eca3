import { MetricError } from '../core/errors.js';
import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.js';
import { resolveMockApiOptions } from './mock-api-options.js';
import { loadMsw } from './msw-module.js';

/**
 * msw request handlers that serve the mock at `api.baseUrl` (default {@link MOCK_BASE_URL}), for
 * `setupServer` (Node) and `setupWorker` (browser). A `reset` fault becomes a network error. They
 * answer the base URL itself (a JSON 404, as the server does) and every path under it; the rest of its
 * origin is left to msw, since an app (a dev server proxying the API, a page's own files) may share it.
 *
 * msw is an optional peer dependency: the rest of `scholarly-metrics/testing` works without it, and
 * so do its type declarations, which therefore do not name msw's types. The handlers are typed
 * `Handler`, `never` unless given: `never` spreads into `setupServer`, `setupWorker` and `server.use`
 * as msw's handlers do; pass msw's type to hold them under its name (`mockHandlers<HttpHandler>(api)`).
 *
 * @typeParam Handler - the type of each handler: msw's `HttpHandler`, or by default `never`.
 * @throws {MetricError} when msw cannot be loaded (not installed: `npm install -D msw`).
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const api = createMockApi();
 * const server = setupServer(...mockHandlers(api));
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 */
export function mockHandlers<Handler = never>(apiOrOptions: MockApi | MockApiOptions = {}): Handler[] {
  const { http } = msw();
  // Checked here first, so that a refusal names the function called.
  if (!isMockApi(apiOrOptions)) resolveMockApiOptions(apiOrOptions, 'mockHandlers()');
  const api = isMockApi(apiOrOptions) ? apiOrOptions : createMockApi(apiOrOptions);
  const answer = ({ request }: { request: Request }) => api.handle(request);
  // msw matches paths without their query, so the first also answers `${baseUrl}?…`.
  return [http.all(api.baseUrl, answer), http.all(`${api.baseUrl}/*`, answer)] as Handler[];
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
  return typeof (value as Partial<MockApi> | null)?.handle === 'function';
}
