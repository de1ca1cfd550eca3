import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, MetricClient } from '../../src/index.js';
import {
  MOCK_API_KEY,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from '../../src/testing/index.js';

/**
 * One mock server per test file, over real sockets on 127.0.0.1; the mock is reset after each test
 * so scores, faults, limits and the request log never leak between tests.
 */
export function useMockServer(options: MockServerOptions = {}) {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await startMockServer(options);
  });
  afterEach(() => server?.api.reset());
  afterAll(async () => {
    await server?.close();
  });
  const running = (): MockServer => {
    if (server === undefined) throw new Error('The mock server starts in beforeAll');
    return server;
  };
  return {
    get server() {
      return running();
    },
    get api() {
      return running().api;
    },
    /** A client of the server with the Professional key; options override. */
    client(clientOptions: ClientOptions = {}) {
      return new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: running().url, ...clientOptions });
    },
  };
}
