// What the Redis quota suites share: the identity they ask for, a wait on what Redis holds, and quotas
// on prefixes of each test's own over a pair of connections to one redis-server.
import { expect } from 'vitest';
import type { QuotaIdentity } from '../../src/core/quota-types.js';
import { type QuotaWindows, RedisQuota, type RedisQuotaOptions } from '../../src/redis/redis-quota.js';
import { type RedisClientKind, useRedisPair } from '../helpers/redis-clients.js';
import { TEST_KEY } from '../support.js';

export const identity: QuotaIdentity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

export async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
  expect(await check()).toBe(true);
}

/** The suite's redis-server and two connections to it, with `quota` and `freshPrefix` over them. */
export function useQuotaPair(kind: RedisClientKind) {
  const pair = useRedisPair(kind);
  let prefixes = 0;

  /** A quota on a prefix of the test's own, as another process would make it with `client`. */
  function quota(options: Omit<RedisQuotaOptions, 'redis'>, windows?: QuotaWindows, client = pair.redis) {
    return new RedisQuota({ redis: client.client, ...options }, windows);
  }
  const freshPrefix = () => `t${++prefixes}`;

  return { pair, quota, freshPrefix };
}
