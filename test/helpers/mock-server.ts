import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ClientOptions } from '../../src/index.js';
import { type MockServer, type MockServerOptions, startMockServer } from '../../src/testing/index.js';
import { testClient } from './test-client.js';

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
    /** `testClient` of the server (the Professional key); options override. */
    client(clientOptions: ClientOptions = {}) {
      return testClient(clientOptions, running());
    },
  };
}
