// `cacheFailure`: what the sender is answered when the cache could not apply an event. With 'reject'
// a 503, so that the sender delivers it again; with 'accept' (the default) a 200. Through both
// receivers, with a store whose writes fail and with a real Redis-backed Keyv cut off from Redis.
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { testClient } from '../support.js';
import { validEvent, validJson } from './fixtures.js';
import { startServer } from './node-server.js';

type Deliver = (options: WebhookHandlerOptions, onEvent?: (event: WebhookEvent) => void) => Promise<Answer>;
interface Answer {
  status: number;
  body: { error?: string };
}

/** One delivery of the valid event through each receiver, the Fetch one called, the Node one over HTTP. */
const receivers: Record<string, Deliver> = {
  fetch: async (options, onEvent = () => {}) => {
    const handle = createWebhookHandler(onEvent, options);
    const response = await handle(new Request('http://127.0.0.1/hook', { method: 'POST', body: validJson }));
    return { status: response.status, body: await response.json() };
  },
  node: async (options, onEvent = () => {}) => {
    const server = await startServer(createNodeWebhookHandler(onEvent, options));
    try {
      const response = await fetch(server.url, { method: 'POST', body: validJson });
      return { status: response.status, body: await response.json() };
    } finally {
      await server.close();
    }
  },
};

/** A cache whose `apply` fails as a store that refuses writes would make it. */
const failingCache = { apply: () => Promise.reject(new Error('store refused the delete')) };

describe.each(Object.entries(receivers))(
  'the %s receiver when the cache cannot apply an event',
  (_, deliver) => {
    it("'reject' answers 503 and calls neither onEvent; onError is told", async () => {
      const errors: unknown[] = [];
      const events: unknown[] = [];
      const answer = await deliver(
        { cache: failingCache, cacheFailure: 'reject', onError: (error) => errors.push(error) },
        (event) => events.push(event),
      );
      expect(answer).toEqual({ status: 503, body: expect.objectContaining({ error: 'cache_unavailable' }) });
      expect(events).toEqual([]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(MetricError);
      expect((errors[0] as Error).message).toMatch(/answered 503/);
      expect(((errors[0] as Error).cause as Error).message).toBe('store refused the delete');
    });

    it("'accept' (the default) answers 200 after onEvent; onError is told", async () => {
      for (const options of [{}, { cacheFailure: 'accept' as const }]) {
        const errors: unknown[] = [];
        const events: unknown[] = [];
        const answer = await deliver(
          { cache: failingCache, onError: (error) => errors.push(error), ...options },
          (event) => events.push(event),
        );
        expect(answer.status).toBe(200);
        expect(events).toEqual([validEvent]);
        expect((errors[0] as Error).message).toMatch(/acknowledged all the same/);
      }
    });

    it("'reject' with a cache that applies: 200", async () => {
      const applied: unknown[] = [];
      const cache = { apply: (event: WebhookEvent) => applied.push(event) };
      expect((await deliver({ cache, cacheFailure: 'reject' })).status).toBe(200);
      expect(applied).toEqual([validEvent]);
    });
  },
);

const skip = skipWithoutRedis('test/webhooks/cache-failure.test.ts');

describe.skipIf(skip)(
  'a receiver keeping a Redis-backed cache fresh, cut off from Redis',
  { timeout: 60_000 },
  () => {
    let redis: RedisServer;
    let mock: MockServer;
    let store: Keyv;

    beforeAll(async () => {
      redis = await startRedisServer();
      mock = await startMockServer({ port: 0 });
      store = new Keyv(new KeyvRedis(redis.url));
      store.on('error', () => {});
    });
    afterAll(async () => {
      await store?.disconnect().catch(() => {});
      await mock?.close();
      await redis?.close();
    });

    it("answers 200 while Redis is up, 503 with 'reject' and 200 with 'accept' once it is gone", async () => {
      const client = testClient({ cache: { store } }, mock);
      await client.journals.get(validEvent.journal_id);
      const options = (cacheFailure: 'accept' | 'reject'): WebhookHandlerOptions => ({
        cache: client.cache,
        cacheFailure,
        onError: () => {},
      });
      for (const deliver of Object.values(receivers))
        expect((await deliver(options('reject'))).status).toBe(200);
      await redis.stop();
      for (const deliver of Object.values(receivers)) {
        expect((await deliver(options('reject'))).status).toBe(503);
        expect((await deliver(options('accept'))).status).toBe(200);
      }
      // Redis back: the delivery sent again is applied and acknowledged.
      await redis.start();
      await expect
        .poll(async () => (await receivers.fetch!(options('reject'))).status, {
          timeout: 30_000,
          interval: 200,
        })
        .toBe(200);
    });
  },
);
