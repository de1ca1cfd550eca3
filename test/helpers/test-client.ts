import type { ClientOptions } from '../../src/client-options.js';
import { MetricClient } from '../../src/index.js';
import { MOCK_API_KEY, type MockApi, type MockServer } from '../../src/testing/index.js';
import { BASE, currentMswFetch } from './msw.js';
import { TEST_KEY } from './test-key.js';

/**
 * What a test client talks to: the mock in-process (a `MockApi`), the mock over sockets (a
 * `MockServer`), or a server of the test's own (`{ base }`: a fault scenario, a real server).
 * Without one, the file's msw server.
 */
export type Fake = MockApi | MockServer | { readonly base: string };

/** The base URL, key and fetch a client of `fake` is given unless the test says otherwise. */
function defaultsFor(fake: Fake | undefined): Pick<ClientOptions, 'apiKey' | 'baseUrl' | 'fetch'> {
  if (fake === undefined) {
    const fetch = currentMswFetch();
    return { apiKey: TEST_KEY, baseUrl: BASE, ...(fetch && { fetch }) };
  }
  if ('base' in fake) return { apiKey: TEST_KEY, baseUrl: fake.base };
  if ('url' in fake) return { apiKey: MOCK_API_KEY, baseUrl: fake.url };
  return { apiKey: MOCK_API_KEY, baseUrl: fake.baseUrl, fetch: fake.fetch };
}

/**
 * The one client factory of the tests: a client of `fake` (the msw server by default), with its
 * base URL and key; `options` override them.
 */
export function testClient(options: ClientOptions = {}, fake?: Fake): MetricClient {
  return new MetricClient({ ...defaultsFor(fake), ...options });
}
