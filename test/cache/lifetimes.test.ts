// How long the cache keeps an answer: each method's ttl, the Age a hit reports, and staleIfError past it.
import Keyv from 'keyv';
import { describe, expect, it, vi } from 'vitest';
import { type MetricClient, NotFoundError } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { recordingLogger } from '../support.js';
import { cachedClient, gatedFetch } from './helpers.js';

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

  it('keeps an answer for the longest lifetime and staleIfError, its expiry read back exactly', async () => {
    // Each millisecond of the clock gives now + lifetime another rounding, were it past 2^53.
    for (let tick = 0; tick < 8; tick++) {
      useFakeClock();
      vi.setSystemTime(Date.now() + tick);
      const { lines, logger } = recordingLogger();
      const longest = { ttl: { 'subjects.list': 1e15 }, staleIfError: 1e15 };
      const { client, sent } = cachedClient({ cache: longest, logLevel: 'warn', logger });
      await client.subjects.list();
      vi.advanceTimersByTime(1 + tick);
      expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
      expect(sent()).toBe(1);
      expect(lines).toEqual([]);
    }
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
    // The call resolved: the failure its kept answer covers is logged at info, never as the call's error.
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
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
