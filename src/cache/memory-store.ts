import type { Store } from './store.js';

/**
 * The bounds of the in-memory store (`cache: true`). A journal list, the largest common answer, is a
 * few tens of kB of JSON and a page of results a few kB: a thousand answers cover a dashboard's
 * working set, and the byte bound keeps a run of large pages from holding more than a browser tab
 * or a small server should spend on it.
 */
export const memoryBounds = { maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 } as const;

interface Slot {
  readonly value: string;
  readonly size: number;
  readonly expires: number;
}

/**
 * Answers kept in this process, least recently used out first, by count and by size (the length of
 * key and value, about their bytes: the JSON is mostly ASCII). An answer larger than the whole bound
 * is not kept. Expiry reads `Date.now`, as the rest of the cache does.
 *
 * A `Map` of its own rather than lru-cache: a Map already keeps insertion order, which is all an LRU
 * of this size needs, and lru-cache would weigh more in a browser bundle than the rest of the cache.
 */
export function memoryStore(bounds: { maxEntries: number; maxBytes: number } = memoryBounds): Store & {
  readonly map: ReadonlyMap<string, Slot>;
  readonly bytes: () => number;
} {
  const map = new Map<string, Slot>();
  let bytes = 0;
  const drop = (key: string) => {
    const slot = map.get(key);
    if (slot === undefined) return;
    map.delete(key);
    bytes -= slot.size;
  };
  return {
    map,
    bytes: () => bytes,
    async get(key) {
      const slot = map.get(key);
      if (slot === undefined) return undefined;
      drop(key);
      if (Date.now() >= slot.expires) return undefined;
      // Inserted again: the most recently used is the last one out.
      map.set(key, slot);
      bytes += slot.size;
      return slot.value;
    },
    async set(key, value, ttl) {
      drop(key);
      const size = key.length + value.length;
      if (size > bounds.maxBytes) return;
      map.set(key, { value, size, expires: Date.now() + ttl });
      bytes += size;
      for (const oldest of map.keys()) {
        if (map.size <= bounds.maxEntries && bytes <= bounds.maxBytes) break;
        drop(oldest);
      }
    },
    async delete(key) {
      drop(key);
    },
    async clear() {
      map.clear();
      bytes = 0;
    },
  };
}
