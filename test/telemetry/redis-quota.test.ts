// A wait for the Redis quota, on the waiting call's span and in the quota-wait metric, with a real
// redis-server started by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisQuota } from '../../src/redis/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { type ConnectedRedis, redisClients } from '../helpers/redis-clients.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { testClient } from '../support.js';
import { useTelemetry } from './harness.js';

const skip = skipWithoutRedis('test/telemetry/redis-quota.test.ts');
const otel = useTelemetry({ undici: false });

describe.skipIf(skip)('the Redis quota through the client telemetry', { timeout: 60_000 }, () => {
  let server: RedisServer;
  let redis: ConnectedRedis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = await redisClients[0]!.connect(server.url);
  });
  afterAll(async () => {
    await redis?.close();
    await server?.close();
  });

  it('the second of two calls waits for the one place: its span and the metric say how long', async () => {
    const api = createMockApi();
    const quota = createRedisQuota({ redis: redis.client, maxConcurrency: 1, prefix: 'telemetry-test' });
    const client = testClient({ quota, telemetry: otel.telemetry }, api);
    api.faults.next({ delayMs: 400 });
    await Promise.all([client.journals.get(1), client.journals.get(2)]);
    const waits = otel
      .named('journals.get')
      .map((span) => span.attributes['scholarly_metrics.quota.wait'] as number)
      .sort((a, b) => a - b);
    expect(waits).toHaveLength(2);
    // The place is held for the first call's whole answer, at least the mock's delay.
    expect(waits[1]!).toBeGreaterThanOrEqual(0.3);
    const [point] = await otel.points('scholarly_metrics.quota.wait');
    expect(point!.attributes).toEqual({ 'scholarly_metrics.quota.source': 'redis' });
    expect((point!.value as { count: number; max?: number }).count).toBe(2);
    expect((point!.value as { max?: number }).max).toBeCloseTo(waits[1]!, 5);
  });
});
