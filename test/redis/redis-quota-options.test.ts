// The Redis quota's options: a client given one takes no limits of its own, and createRedisQuota
// refuses bad options with ConfigurationError naming them.
import { describe, expect, it } from 'vitest';
import type { QuotaIdentity, RequestQuota } from '../../src/core/quota-types.js';
import { ConfigurationError, MetricClient, MetricError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { redisClients } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { OTHER_TEST_KEY, TEST_KEY } from '../support.js';
import { identity, useQuotaPair } from './quota-pair.js';

const skip = skipWithoutRedis('test/redis/redis-quota-options.test.ts');

describe.skipIf(skip).each(redisClients)('the Redis quota over $name', { timeout: 60_000 }, (kind) => {
  const { pair, freshPrefix } = useQuotaPair(kind);

  it('MetricClient: quota with its own limits throws; withOptions shares the parent’s quota', async () => {
    const shared = createRedisQuota({ redis: pair.redis.client, maxConcurrency: 1, prefix: freshPrefix() });
    expect(
      () =>
        // @ts-expect-error: a type error too (ClientOptions); a JavaScript caller meets the runtime check
        new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: shared, maxConcurrency: 2 }),
    ).toThrow(MetricError);
    expect(
      () => new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: {} as never }),
    ).toThrow(MetricError);
    const seen: RequestQuota[] = [];
    const spy = {
      forClient: (id: QuotaIdentity) => seen[seen.push(shared.forClient(id)) - 1] as RequestQuota,
    };
    const parent = new MetricClient({ apiKey: TEST_KEY, baseUrl: identity.baseUrl, quota: spy });
    parent.withOptions({ timeout: 1_000 });
    expect(seen).toHaveLength(1);
    parent.withOptions({ apiKey: OTHER_TEST_KEY });
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });
});

describe('createRedisQuota refuses bad options with ConfigurationError naming them', () => {
  it.each([
    [{ redis: {} }, 'redis', /node-redis/],
    [{ redis: null }, 'redis', /node-redis/],
    [{ redis: { evalSha() {} }, maxConcurrency: 0 }, 'maxConcurrency', /maxConcurrency/],
    [{ redis: { evalsha() {} }, maxRequestsPerMinute: 1.5 }, 'maxRequestsPerMinute', /maxRequestsPerMinute/],
    [{ redis: { evalsha() {} }, maxRequestsPerDay: '5' }, 'maxRequestsPerDay', /maxRequestsPerDay/],
    [{ redis: { evalsha() {} }, prefix: '' }, 'prefix', /prefix/],
    [{ redis: { evalsha() {} }, prefix: 42 }, 'prefix', /prefix/],
    // A brace would break the cluster hash tag: `app{}` fails every call with CROSSSLOT, `team{a}`
    // puts every partition in one slot.
    [{ redis: { evalsha() {} }, prefix: 'app{}' }, 'prefix', /\{/],
    [{ redis: { evalsha() {} }, prefix: 'team{a}' }, 'prefix', /\{/],
    [{ redis: { evalsha() {} }, prefix: 'x}' }, 'prefix', /\}/],
  ])('%o', (options, option, message) => {
    const error = (() => {
      try {
        createRedisQuota(options as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(MetricError);
    expect((error as ConfigurationError).option).toBe(option);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses options that are not an object', () => {
    expect(() => createRedisQuota(undefined as never)).toThrow(ConfigurationError);
    expect(() => createRedisQuota(null as never)).toThrow(ConfigurationError);
  });
});
