/**
 * A client given no `fetch` sends through the global one as it is at each call: msw's `listen()`, or an
 * APM agent wrapping fetch, after the client was made (a module-level client in a test file) is used.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, MetricClient } from '../../src/index.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from '../../src/testing/index.js';

const api = createMockApi({ sizes: { journals: 3, papers: 5, authors: 2, subjects: 2, countries: 2 } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the global fetch', () => {
  it('is the one in place when the call is made, not when the client was', async () => {
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL });
    const sent: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return api.fetch(input, init);
    });
    expect(await client.subjects.list()).toHaveLength(2);
    expect(sent).toEqual([`${MOCK_BASE_URL}/subjects`]);
  });

  it('missing, with none given: a ConfigurationError when the client is made', () => {
    vi.stubGlobal('fetch', undefined);
    expect(() => new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL })).toThrow(
      ConfigurationError,
    );
    expect(
      new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: api.fetch }),
    ).toBeDefined();
  });
});
