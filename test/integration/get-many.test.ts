import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  InternalServerError,
  InvalidParameterError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '../../src/index.js';
import { MOCK_DOIS, MOCK_NO_ACCESS_API_KEY } from '../../src/testing/index.js';
import { UNKNOWN_KEY, useMockServer } from '../support.js';

// Real sockets on 127.0.0.1: the mock server, port picked by the system.
const mock = useMockServer({ port: 0, sizes: { journals: 10, papers: 200, authors: 20 } });

const madeUp = '10.9999/no-such-paper';
const paperRequests = () => mock.api.requests.filter((r) => r.path.startsWith('/api/v1/papers/'));

describe('papers.getMany against the mock server', () => {
  it('finds the real MOCK_DOIS, reports a made-up DOI as a 404, keeps the order', async () => {
    const input = [MOCK_DOIS[0]!, madeUp, ...MOCK_DOIS.slice(1)];
    const results = await mock.client().papers.getMany(input, { concurrency: 3 });
    expect(results.map((r) => r.doi)).toEqual(input);
    for (const [i, result] of results.entries()) {
      if (i === 1) {
        expect(result.error).toBeInstanceOf(NotFoundError);
        expect(result.error?.message).toContain(madeUp);
      } else {
        expect(result.error).toBeUndefined();
        expect(result.paper?.doi).toBe(input[i]);
      }
    }
    expect(paperRequests()).toHaveLength(5);
  });

  it('one request per distinct DOI, ASCII case folded; a refused DOI is never sent', async () => {
    const results = await mock
      .client()
      .papers.getMany([MOCK_DOIS[0]!, MOCK_DOIS[0]!.toUpperCase(), 'not a doi', MOCK_DOIS[0]!]);
    expect(paperRequests()).toHaveLength(1);
    expect(results[1]!.paper).toBe(results[0]!.paper);
    expect(results[3]!.paper).toBe(results[0]!.paper);
    expect(results[2]!.error).toBeInstanceOf(InvalidParameterError);
  });

  it('a 500 fails its own item only', async () => {
    mock.api.faults.next({ status: 500 });
    const results = await mock.client().papers.getMany(MOCK_DOIS, { concurrency: 1, maxRetries: 0 });
    expect(results[0]!.error).toBeInstanceOf(InternalServerError);
    expect(results.slice(1).map((r) => r.paper?.doi)).toEqual(MOCK_DOIS.slice(1));
  });

  it.each([
    ['a 401', { apiKey: UNKNOWN_KEY }, AuthenticationError],
    ['a 403', { apiKey: MOCK_NO_ACCESS_API_KEY }, PermissionDeniedError],
  ] as const)('%s rejects the whole call, one request sent', async (_label, options, type) => {
    await expect(mock.client(options).papers.getMany(MOCK_DOIS, { concurrency: 1 })).rejects.toThrow(type);
    expect(paperRequests()).toHaveLength(1);
  });

  it('a 429 asking for two minutes rejects the whole call', async () => {
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '120' } });
    const error = await mock
      .client()
      .papers.getMany(MOCK_DOIS, { concurrency: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(120);
    expect(paperRequests()).toHaveLength(1);
  });
});
