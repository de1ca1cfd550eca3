// The cache over @keyv/redis and a real redis-server: shared between clients and processes, kept
// fresh by a webhook received in another process, holding no key, and done without when Redis is down.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheParts } from '../../src/cache/client-cache.js';
import { markerLifetimeOf } from '../../src/cache/events.js';
import { markerSlots } from '../../src/cache/keys.js';
import type { MetricClient } from '../../src/index.js';
import { MOCK_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { createNodeWebhookHandler } from '../../src/webhooks/index.js';
import { bundled } from '../helpers/bundle.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { recordingLogger, testClient } from '../support.js';
import { eventsInFlight } from './helpers.js';

const forgedEvent = (journal_id: number, new_score = 50, quartile = 'Q1') => ({
  event: 'score_updated' as const,
  journal_id,
  old_score: 1,
  new_score,
  quartile,
  timestamp: '2099-01-01T00:00:00Z',
});

const skip = skipWithoutRedis('test/cache/redis.test.ts');

describe.skipIf(skip)('the cache over Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  let mock: MockServer;
  const stores: Keyv[] = [];
  const storeOf = () => {
    const store = new Keyv(new KeyvRedis(redis.url));
    store.on('error', () => {});
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    mock = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.disconnect().catch(() => {})));
    await mock?.close();
    await redis?.close();
  });

  it('serves one client from what another kept, and Redis holds no key', async () => {
    const a = testClient({ cache: { store: storeOf() } }, mock);
    const b = testClient({ cache: { store: storeOf() } }, mock);
    const sent = mock.api.requests.length;
    await a.journals.get(7);
    await a.papers.search({ q: 'graphene' });
    expect((await b.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect(mock.api.requests.length).toBe(sent + 2);
    const raw = await createClient({ url: redis.url }).connect();
    try {
      const keys: string[] = [];
      for await (const batch of raw.scanIterator({ MATCH: '*' })) keys.push(...batch);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const key of keys) {
        expect(key).not.toContain(MOCK_API_KEY);
        expect(await raw.get(key)).not.toContain(MOCK_API_KEY);
      }
    } finally {
      raw.destroy();
    }
  });

  it('a webhook received in this process refreshes another process on its next call', async () => {
    const receiverClient = testClient({ cache: { store: storeOf() } }, mock);
    const handler = createNodeWebhookHandler(() => {}, { cache: receiverClient.cache });
    const receiver: Server = createServer(handler);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address() as { port: number };
    const unsubscribe = mock.api.webhooks.subscribe(`http://127.0.0.1:${address.port}/hooks`);
    const child: ChildProcess = fork(
      bundled(join(import.meta.dirname, 'fixtures/redis-child.ts')),
      [mock.url, redis.url],
      {
        execArgv: [],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const ask = async (id: number) => {
      child.send({ id });
      const [answer] = await once(child, 'message');
      return answer as { score: number; cacheStatus: string };
    };
    try {
      await once(child, 'message'); // ready
      const warm = await ask(9);
      expect((await ask(9)).cacheStatus).toBe('hit');
      const score = warm.score === 77 ? 78 : 77;
      const { deliveries } = await mock.api.updateScore(9, score);
      expect(deliveries[0]).toMatchObject({ ok: true, status: 200 });
      expect(await ask(9)).toEqual({ score, cacheStatus: 'miss' });
      expect(await ask(9)).toEqual({ score, cacheStatus: 'hit' });
    } finally {
      unsubscribe();
      child.send({ exit: true });
      await once(child, 'exit');
      receiver.close();
    }
  });

  it('forged events for journals nobody asked for leave no marker, and no answer kept elsewhere is lost', async () => {
    const client = testClient({ cache: { store: storeOf() }, timeout: 2_000, maxRetries: 1 }, mock);
    await client.countries.list();
    const forged = (journal_id: number) => ({
      event: 'score_updated' as const,
      journal_id,
      old_score: 1,
      new_score: 50,
      quartile: 'Q1',
      timestamp: '2026-01-01T00:00:00Z',
    });
    const raw = await createClient({ url: redis.url }).connect();
    const scan = async (pattern: string) => {
      const keys: string[] = [];
      for await (const batch of raw.scanIterator({ MATCH: pattern })) keys.push(...batch);
      return keys.sort();
    };
    try {
      const before = await scan('*#event*');
      for (let i = 0; i < markerSlots + 300; i++) await client.cache!.apply(forged(500_000 + i));
      const markers = await scan('*#event*');
      expect(markers).toEqual(before);
      expect(markers.length).toBeLessThanOrEqual(markerSlots + 1);
      const lifetime = markerLifetimeOf(2_000, 1, cacheParts);
      for (const key of [...markers, ...(await scan('*#flight*'))].slice(0, 50)) {
        const ttl = await raw.pTTL(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(Math.max(lifetime, markerLifetimeOf(30_000, 2, cacheParts)));
      }
    } finally {
      raw.destroy();
    }
    expect((await client.countries.list().withResponse()).cacheStatus).toBe('hit');
  });

  it('made-up events beside 100 calls: journals.list and journals.get(42) cost one request each', async () => {
    let next = 3_000_000;
    let k = 1;
    let madeUp = () => next++;
    let client!: MetricClient;
    const { fetch, trickle } = eventsInFlight(globalThis.fetch, () =>
      client.cache!.apply(forgedEvent(madeUp())),
    );
    client = testClient({ cache: { store: storeOf() }, fetch }, mock);
    const sentSince = (from: number) => mock.api.requests.slice(from).map((request) => request.path);
    const [listed] = await client.journals.list();
    const journal = await client.journals.get(42);
    await client.cache!.apply(forgedEvent(listed!.id, listed!.metric_score + 1, listed!.quartile));
    await client.cache!.apply(forgedEvent(42, journal.metric_score + 1, journal.quartile));
    trickle.on = true;
    let before = mock.api.requests.length;
    for (let i = 0; i < 100; i++) {
      await client.cache!.apply(forgedEvent(madeUp()));
      await client.journals.list();
    }
    expect(sentSince(before)).toEqual(['/api/v1/journals']);
    madeUp = () => 42 + 1024 * k++;
    before = mock.api.requests.length;
    for (let i = 0; i < 100; i++) {
      await client.cache!.apply(forgedEvent(madeUp()));
      await client.journals.get(42);
    }
    expect(sentSince(before)).toEqual(['/api/v1/journals/42']);
    expect(trickle.applied).toBe(2);
  });

  it('goes to the API with a warning while Redis is down, and uses it again once back', async () => {
    const { lines, logger } = recordingLogger();
    const client = testClient({ cache: { store: storeOf() }, logLevel: 'warn', logger }, mock);
    await client.subjects.list();
    await redis.stop();
    const sent = mock.api.requests.length;
    const answer = await client.subjects.list().withResponse();
    expect(answer.data.length).toBeGreaterThan(0);
    expect(mock.api.requests.length).toBe(sent + 1);
    expect(lines.some((line) => line.level === 'warn' && /cache store failed/.test(line.message))).toBe(true);
    await redis.start();
    await expect
      .poll(async () => (await client.subjects.list().withResponse()).cacheStatus, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe('hit');
  });
});
