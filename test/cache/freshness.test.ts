import Keyv from 'keyv';
import Keyv6 from 'keyv6';
import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../src/cache/memory-store.js';
import { type MetricClient, NotFoundError, WebhookPayloadError } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { recordingLogger, testClient } from '../support.js';
import { cachedClient, gatedFetch } from './helpers.js';

const paths = (api: { requests: readonly { path: string }[] }) =>
  api.requests.map((r) => r.path.replace('/api/v1', ''));

describe('the mock after updateScore', () => {
  it('shows the new score in the profile, the score history and the journal list', async () => {
    const api = createMockApi({ now: () => Date.parse('2026-02-03T10:00:00Z') });
    const client = testClient({}, api);
    const before = await client.journals.get(7);
    const score = before.metric_score === 91 ? 92 : 91;
    await api.updateScore(7, score);
    expect(await client.journals.get(7)).toMatchObject({ metric_score: score, quartile: 'Q1' });
    const history = await client.journals.score(7);
    expect(history).toMatchObject({ current: score, quartile: 'Q1' });
    expect(history.history[0]).toEqual({ date: '2026-02-03', score });
    expect((await client.journals.list()).find((j) => j.id === 7)).toMatchObject({ metric_score: score });
  });
});

describe('client.cache.apply(event)', () => {
  it("drops the journal's profile, score history and the list, and nothing else", async () => {
    const { api, client } = cachedClient();
    const warm = async () => {
      await client.journals.get(7);
      await client.journals.score(7);
      await client.journals.list();
      await client.journals.papers(7);
      await client.journals.get(8);
      await client.journals.score(8);
      await client.subjects.list();
    };
    await warm();
    const { event } = await api.updateScore(7, 12);
    (api.requests as unknown[]).splice(0);
    await client.cache!.apply(event);
    await warm();
    expect(paths(api)).toEqual(['/journals/7', '/journals/7/score', '/journals']);
    expect((await client.journals.get(7)).metric_score).toBe(12);
    expect((await client.journals.score(7)).current).toBe(12);
    expect((await client.journals.list()).find((j) => j.id === 7)?.metric_score).toBe(12);
  });

  it('refuses anything but a score_updated event', async () => {
    const { client } = cachedClient();
    await expect(client.cache!.apply({ event: 'nope' } as never)).rejects.toBeInstanceOf(WebhookPayloadError);
  });

  it('clear() drops everything', async () => {
    const { client, sent } = cachedClient();
    await client.subjects.list();
    await client.cache!.clear();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(2);
  });

  it('clear() keeps no answer that was in flight when it was called, whatever the method', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { client, sent } = cachedClient({ fetch: gated.fetch }, api);
    const inFlight = Promise.all([client.subjects.list(), client.journals.papers(7), client.journals.get(7)]);
    await vi.waitFor(() => expect(gated.started()).toBe(3));
    await client.cache!.clear();
    gated.release();
    await inFlight;
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect((await client.journals.papers(7).withResponse()).cacheStatus).toBe('miss');
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(6);
  });

  it('an answer in flight when the event is applied is not kept, and later calls do not join it', async () => {
    // The first answer is made at once (the old score) and handed over only when the test says.
    const { api, client, release } = firstHeld();
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    const { event } = await api.updateScore(7, 13);
    await client.cache!.apply(event);
    const late = await client.journals.get(7);
    expect(late.metric_score).toBe(13);
    release();
    expect((await early).metric_score).not.toBe(13);
    // The early answer came back last; it must not be what is kept.
    expect((await client.journals.get(7)).metric_score).toBe(13);
    expect((await client.journals.get(7)).metric_score).toBe(13);
  });

  /** A client over the mock whose first request's answer (made at once) is handed over at `release()`. */
  function firstHeld() {
    const api = createMockApi();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await api.fetch(input, init);
      if (first) {
        first = false;
        await gate;
      }
      return response;
    };
    return { release, ...cachedClient({ fetch }, api) };
  }

  it('reaches a request in flight with every event, not only the first that concerns it', async () => {
    const { api, client, release } = firstHeld();
    // The API has the first change, whose delivery is late: the request in flight shows it.
    const { event: first } = await api.updateScore(7, 21);
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    await client.cache!.apply(first);
    const { event: second } = await api.updateScore(7, 22);
    await client.cache!.apply(second);
    release();
    expect((await early).metric_score).toBe(21);
    // The answer landed after the second event, which it contradicts: it must not be kept.
    const after = await client.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['miss', 22]);
  });

  it('reaches a request in flight that a refresh took the place of, so that its answer is not kept', async () => {
    const { api, client, release } = firstHeld();
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    const before = (await client.journals.get(7, { cache: 'refresh' })).metric_score;
    const { event } = await api.updateScore(7, before === 31 ? 32 : 31);
    await client.cache!.apply(event);
    release();
    expect((await early).metric_score).toBe(before);
    const after = await client.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['miss', event.new_score]);
  });
});

describe('a webhook receiver given the cache', () => {
  it("applies the mock's delivery before onEvent; the next call shows the new score", async () => {
    const seen: number[] = [];
    let client!: MetricClient;
    const handler = () =>
      createWebhookHandler(
        async (event) => {
          // The cache has already dropped the journal: this call goes to the API.
          seen.push((await client.journals.get(event.journal_id)).metric_score);
        },
        { cache: client.cache },
      );
    let handle!: ReturnType<typeof createWebhookHandler>;
    const api = createMockApi({
      webhooks: {
        urls: ['https://my-app.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    ({ client } = cachedClient({}, api));
    handle = handler();
    await client.journals.get(7);
    const { deliveries } = await api.updateScore(7, 14);
    expect(deliveries).toEqual([{ url: 'https://my-app.test/hooks', ok: true, status: 200 }]);
    expect(seen).toEqual([14]);
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect((await client.journals.get(7)).metric_score).toBe(14);
  });

  it('logs a failing apply and still acknowledges the delivery', async () => {
    const errors: unknown[] = [];
    let events = 0;
    const handle = createWebhookHandler(() => void events++, {
      cache: { apply: () => Promise.reject(new Error('redis down')) },
      onError: (error) => void errors.push(error),
    });
    const api = createMockApi({
      webhooks: {
        urls: ['https://my-app.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    const { deliveries } = await api.updateScore(7, 15);
    expect(deliveries[0]?.status).toBe(200);
    expect(events).toBe(1);
    expect(String(errors[0])).toMatch(/cache\.apply\(event\) failed/);
    expect((errors[0] as Error).cause).toEqual(new Error('redis down'));
  });

  it('refuses a cache without apply at creation', () => {
    expect(() => createWebhookHandler(() => {}, { cache: {} as never })).toThrow(/apply\(event\)/);
  });
});

describe('lifetimes', () => {
  it('serves until the ttl has passed, then asks again', async () => {
    useFakeClock();
    const { client, sent } = cachedClient({ cache: { ttl: { 'subjects.list': 60_000 } } });
    await client.subjects.list();
    vi.advanceTimersByTime(59_000);
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
    vi.advanceTimersByTime(1_000);
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(2);
  });

  it('gives the Age of a hit in whole seconds', async () => {
    useFakeClock();
    const { client } = cachedClient();
    await client.subjects.list();
    vi.advanceTimersByTime(125_500);
    expect((await client.subjects.list().withResponse()).response.headers.get('age')).toBe('125');
  });
});

describe('stale if error', () => {
  const stale = (options = {}) =>
    cachedClient({
      maxRetries: 0,
      cache: { ttl: { 'journals.get': 1_000 }, staleIfError: 60_000 },
      ...options,
    });

  it.each([
    ['a 503', { status: 503 }],
    ['a 429', { status: 429, headers: { 'retry-after': '3600' } }],
    ['a dropped connection', { reset: true }],
  ])('serves an expired answer after %s, logged at warn', async (_, fault) => {
    useFakeClock();
    const { lines, logger } = recordingLogger();
    const { api, client } = stale({ logLevel: 'warn', logger });
    const kept = await client.journals.get(7);
    vi.advanceTimersByTime(30_000);
    api.faults.next(fault);
    const answer = await client.journals.get(7).withResponse();
    expect(answer.cacheStatus).toBe('stale');
    expect(answer.data).toEqual(kept);
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      expect.stringMatching(/serving the kept answer/),
    ]);
  });

  /** A fetch over `api` that, once `hold()` is called, keeps each request in flight until its gate opens. */
  function holdableFetch(api: MockApi) {
    let gate: ReturnType<typeof gatedFetch> | undefined;
    const fetch: typeof globalThis.fetch = (input, init) => (gate ?? api).fetch(input, init);
    const hold = () => {
      gate = gatedFetch(api);
      return gate;
    };
    return { fetch, hold };
  }

  /** Journal 7 kept, then asked for once expired: that call, its request held in flight, answered 503. */
  async function expiredCallHeld(client: MetricClient, api: MockApi, held: ReturnType<typeof holdableFetch>) {
    await client.journals.get(7);
    vi.advanceTimersByTime(30_000);
    api.faults.next({ status: 503 });
    const gate = held.hold();
    const call = client.journals.get(7).withResponse();
    for (let turn = 0; gate.started() === 0 && turn < 1_000; turn++) await new Promise(setImmediate);
    expect(gate.started()).toBe(1);
    return { call, gate };
  }

  it.each([
    [
      'an event',
      async (client: MetricClient, api: MockApi) => client.cache!.apply((await api.updateScore(7, 99)).event),
    ],
    ['cache.clear()', (client: MetricClient) => client.cache!.clear()],
  ])('serves no kept answer that %s dropped while the request was out', async (_, drop) => {
    useFakeClock();
    const api = createMockApi();
    const held = holdableFetch(api);
    const cache = { ttl: { 'journals.get': 1_000 }, staleIfError: 60_000 };
    const { client } = cachedClient({ maxRetries: 0, fetch: held.fetch, cache }, api);
    const { call, gate } = await expiredCallHeld(client, api, held);
    await drop(client, api);
    gate.release();
    await expect(call).rejects.toMatchObject({ status: 503 });
  });

  it('serves the fresh answer another process kept while the request was out, as a hit', async () => {
    useFakeClock();
    const [api, map] = [createMockApi(), new Map<string, unknown>()];
    const held = holdableFetch(api);
    // Two processes sharing one store: each its own Keyv over the same map.
    const processOf = (more: object) => {
      const cache = { store: new Keyv({ store: map }), ttl: { 'journals.get': 1_000 }, staleIfError: 60_000 };
      return cachedClient({ maxRetries: 0, cache, ...more }, api).client;
    };
    const [client, other] = [processOf({ fetch: held.fetch }), processOf({})];
    const { call, gate } = await expiredCallHeld(client, api, held);
    expect((await other.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    gate.release();
    expect((await call).cacheStatus).toBe('hit');
  });

  it('serves nothing past staleIfError, and never on another 4xx', async () => {
    useFakeClock();
    const { api, client } = stale();
    await client.journals.get(7);
    vi.advanceTimersByTime(30_000);
    api.faults.next({ status: 404 });
    await expect(client.journals.get(7)).rejects.toBeInstanceOf(NotFoundError);
    vi.advanceTimersByTime(40_000);
    api.faults.next({ status: 503 });
    await expect(client.journals.get(7)).rejects.toMatchObject({ status: 503 });
  });

  it('with staleIfError 0 (the default), an expired answer is never served', async () => {
    useFakeClock();
    const { api, client } = cachedClient({ maxRetries: 0, cache: { ttl: { 'journals.get': 1_000 } } });
    await client.journals.get(7);
    vi.advanceTimersByTime(1_000);
    api.faults.next({ status: 500 });
    await expect(client.journals.get(7)).rejects.toMatchObject({ status: 500 });
  });
});

describe('the memory store', () => {
  it('forgets an entry once its lifetime is over', async () => {
    useFakeClock();
    const store = memoryStore();
    await store.set('a', 'x', 1_000);
    vi.advanceTimersByTime(999);
    expect(await store.get('a')).toBe('x');
    vi.advanceTimersByTime(1);
    expect(await store.get('a')).toBeUndefined();
    expect(store.map.size).toBe(0);
    expect(store.bytes()).toBe(0);
  });

  it('holds the default bounds: a thousand answers', async () => {
    const store = memoryStore();
    for (let n = 0; n < 1_050; n++) await store.set(`k${n}`, 'x', 60_000);
    expect(store.map.size).toBe(1_000);
    expect(await store.get('k49')).toBeUndefined();
    expect(await store.get('k50')).toBe('x');
  });

  it('drops the least recently used first, by count', async () => {
    const store = memoryStore({ maxEntries: 2, maxBytes: 1_000_000 });
    await store.set('a', 'x', 60_000);
    await store.set('b', 'x', 60_000);
    await store.get('a');
    await store.set('c', 'x', 60_000);
    expect([...store.map.keys()].sort()).toEqual(['a', 'c']);
  });

  it('drops the least recently used first, by size, and never keeps one answer past the bound', async () => {
    const store = memoryStore({ maxEntries: 100, maxBytes: 100 });
    await store.set('a', 'x'.repeat(40), 60_000);
    await store.set('b', 'x'.repeat(40), 60_000);
    await store.set('c', 'x'.repeat(40), 60_000);
    expect([...store.map.keys()].sort()).toEqual(['b', 'c']);
    await store.set('d', 'x'.repeat(200), 60_000);
    expect(await store.get('d')).toBeUndefined();
    expect(store.bytes()).toBeLessThanOrEqual(100);
    expect(store.bytes()).toBe(82);
  });
});

describe.each([
  ['keyv 5', () => new Keyv()],
  ['keyv 6', () => new Keyv6()],
])('over %s, in memory', (_, makeStore) => {
  it('keeps, serves and drops by event', async () => {
    const store = makeStore();
    const { api, client, sent } = cachedClient({ cache: { store } });
    await client.journals.get(7);
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    const { event } = await api.updateScore(7, 16);
    await client.cache!.apply(event);
    expect((await client.journals.get(7)).metric_score).toBe(16);
    expect(sent()).toBe(2);
    // Another client over the same store (another process, in effect) is served from it.
    const other = cachedClient({ cache: { store } }, api);
    expect((await other.client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
  });
});
