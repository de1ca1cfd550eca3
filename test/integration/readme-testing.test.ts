// The README's "Testing your code" examples, verbatim but for the import paths: if this file
// breaks, the README is wrong.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { MetricClient, NotFoundError } from '../../src/index.js';
import {
  createMockApi,
  MOCK_API_KEY,
  MOCK_BASE_URL,
  mockHandlers,
  startMockServer,
} from '../../src/testing/index.js';

describe('README: with the mock as the client fetch', () => {
  const mock = createMockApi();
  const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: mock.fetch });

  test('finds the top journal', async () => {
    const [top] = (await client.journals.list()).sort((a, b) => b.metric_score - a.metric_score);
    expect(top?.quartile).toBe('Q1');
  });

  test('survives a flaky API', async () => {
    mock.faults.next({ status: 503, headers: { 'retry-after': '0' } });
    await expect(client.subjects.list()).resolves.toHaveLength(25);
  });
});

describe('README: with msw', () => {
  const api = createMockApi();
  const server = setupServer(...mockHandlers(api));
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => api.reset());
  afterAll(() => server.close());

  test('reports a missing journal', async () => {
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL });
    await expect(client.journals.get(404_404)).rejects.toThrow(NotFoundError);
  });
});

describe('README: with a real server', () => {
  test('for code that makes its own HTTP requests', async () => {
    const server = await startMockServer();
    try {
      const response = await fetch(`${server.url}/subjects`, {
        headers: { authorization: `Bearer ${MOCK_API_KEY}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
