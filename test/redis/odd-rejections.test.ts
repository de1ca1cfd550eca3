// A Redis client that rejects with what no client library throws: every call still ends with a
// QuotaUnavailableError, and nothing is left unhandled.
import { describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { failureText } from '../../src/redis/reply.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from '../../src/testing/index.js';
import { rejection } from '../helpers/calls.js';

const odd: Array<[string, () => unknown]> = [
  ['an object with no prototype', () => Object.create(null)],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
  ],
  [
    'an Error whose message getter throws',
    () =>
      Object.defineProperty(new Error(), 'message', {
        get: () => {
          throw new Error('no');
        },
      }),
  ],
];

describe.each(odd)('a Redis client that rejects with %s', (_what, value) => {
  it('is told as text, whatever it is', () => {
    expect(failureText(value())).toMatch(/^a thrown object|Error/);
  });

  it('ends the call with a QuotaUnavailableError; nothing is sent', async () => {
    const fail = async () => {
      throw value();
    };
    const redis = { evalsha: fail, eval: fail };
    const quota = createRedisQuota({ redis: redis as never, maxRequestsPerMinute: 10 });
    const api = createMockApi();
    const { MetricClient } = await import('../../src/index.js');
    const client = new MetricClient({
      apiKey: MOCK_API_KEY,
      baseUrl: MOCK_BASE_URL,
      fetch: api.fetch,
      quota,
    });
    expect(await rejection(client.journals.get(1))).toBeInstanceOf(QuotaUnavailableError);
    expect(api.requests).toHaveLength(0);
  });
});
