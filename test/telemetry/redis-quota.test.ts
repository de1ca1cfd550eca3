// A wait for the Redis quota, on the waiting call's span and in the quota-wait metric, with a real
// redis-server started by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { type ConnectedRedis, redisClients } from '../helpers/redis-clients.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { eventually, testClient } from '../support.js';
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
    expect(point!.attributes).toEqual({
      'scholarly_metrics.quota.source': 'redis',
      'server.address': new URL(api.baseUrl).hostname,
      'server.port': 443,
    });
    expect((point!.value as { count: number; max?: number }).count).toBe(2);
    expect((point!.value as { max?: number }).max).toBeCloseTo(waits[1]!, 5);
  });

  it('gauges of the calls waiting and in flight; a counter of QuotaUnavailableErrors', async () => {
    const api = createMockApi();
    const quota = createRedisQuota({ redis: redis.client, maxConcurrency: 1, prefix: 'telemetry-gauges' });
    // The request in flight is answered when the test says, however slow the collection is.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const client = testClient(
      {
        baseUrl: 'https://mock.test/api/v1',
        fetch: async (input, init) => {
          await answered;
          return api.fetch(input, init);
        },
        quota,
        maxRetries: 0,
        telemetry: otel.telemetry,
      },
      api,
    );
    const server = { 'server.address': 'mock.test', 'server.port': 443 };
    const gauge = async (name: string) =>
      (await otel.points(`scholarly_metrics.quota.${name}`)).map((p) => [p.attributes, p.value]);
    // Which of the two gets the place first is Redis's order: the test reads the outcomes, not the names.
    const calls = [client.journals.get(1), client.journals.get(2)].map((call) =>
      call.then(
        () => 'answered',
        (error: unknown) => error,
      ),
    );
    // Waited for: the first is in flight and the second waits once both reached the quota, however
    // long the round trips to Redis take on a loaded machine.
    await eventually(async () => expect((await gauge('waiting'))[0]?.[1]).toBe(1));
    const attributes = { 'scholarly_metrics.quota.source': 'redis', ...server };
    expect(await gauge('waiting')).toEqual([[attributes, 1]]);
    expect(await gauge('in_flight')).toEqual([[attributes, 1]]);
    // close() waits for the call in flight; the waiting one is refused at once, before it is answered.
    const closing = quota.close();
    const refused = await Promise.race(calls);
    expect(refused).toBeInstanceOf(QuotaUnavailableError);
    answer();
    await closing;
    expect((await Promise.all(calls)).filter((outcome) => outcome === 'answered')).toHaveLength(1);
    expect(await gauge('waiting')).toEqual([[attributes, 0]]);
    expect(await gauge('in_flight')).toEqual([[attributes, 0]]);
    expect(await gauge('unavailable')).toEqual([[attributes, 1]]);
  });
});
