import type { ClientOptions } from '../../src/index.js';
import { MetricClient } from '../../src/index.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, type MockApi } from '../../src/testing/index.js';

/** A mock and a client over it (in-process, no sockets); `sent()` counts the API requests. */
export function cachedClient(options: ClientOptions = {}, api: MockApi = createMockApi()) {
  const client = new MetricClient({
    apiKey: MOCK_API_KEY,
    baseUrl: MOCK_BASE_URL,
    fetch: api.fetch,
    cache: true,
    ...options,
  });
  return { api, client, sent: () => api.requests.length };
}

/** A Logger that keeps its lines. */
export function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') } };
}
