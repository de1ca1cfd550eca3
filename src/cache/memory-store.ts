import { LRUCache } from 'lru-cache';
import type { Store } from './store.js';

/**
 * The bounds of the in-memory store (`cache: true`). A journal list, the largest common answer, is a
 * few tens of kB of JSON and a page of results a few kB: a thousand answers cover a dashboard's
 * working set, and the byte bound keeps a run of large pages from holding more than a browser tab
 * or a small server should spend on it.
 */
export const memoryBounds = { maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 } as const;

/**
 * Answers kept in this process, least recently used out first, by count and by size (the length of
 * key and value, about their bytes: the JSON is mostly ASCII). An answer larger than the whole bound
 * is not kept. Expiry reads `Date.now`, as the rest of the cache does.
 */
export function memoryStore(bounds: { maxEntries: number; maxBytes: number } = memoryBounds): Store & {
  readonly map: LRUCache<string, string>;
} {
  const map = new LRUCache<string, string>({
    max: bounds.maxEntries,
    maxSize: bounds.maxBytes,
    sizeCalculation: (value, key) => value.length + key.length || 1,
    perf: { now: () => Date.now() },
  });
  return {
    map,
    async get(key) {
      return map.get(key);
    },
    async set(key, value, ttl) {
      map.set(key, value, { ttl });
    },
    async delete(key) {
      map.delete(key);
    },
    async clear() {
      map.clear();
    },
  };
}
