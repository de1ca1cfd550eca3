// An ioredis client made with `stringNumbers: true` hands every integer reply over as its digits: the
// quota reads them as the numbers they are, against a real redis-server.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { TEST_KEY } from '../support.js';

const skip = skipWithoutRedis('test/redis/string-numbers.test.ts');

describe.skipIf(skip)('the Redis quota over ioredis with stringNumbers', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url, { stringNumbers: true });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.close();
  });

  it('grants, counts and reports as over a client that hands numbers over', async () => {
    const quota = new RedisQuota({ redis, maxConcurrency: 2, maxRequestsPerMinute: 10 });
    const part = quota.forClient({ baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY });
    const answers = await Promise.all([1, 2, 3].map((n) => part.run(async () => n)));
    expect(answers).toEqual([1, 2, 3]);
    await quota.close();
    expect(await quota.stats()).toMatchObject({ waiting: 0, inFlight: 0, startedLastMinute: 3 });
  });
});
