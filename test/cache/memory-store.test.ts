// The stores the cache keeps answers in within one process: its own memory store, and Keyv 5 and 6.
import Keyv from 'keyv';
import Keyv6 from 'keyv6';
import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../src/cache/memory-store.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { cachedClient } from './helpers.js';

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
