/**
 * The values of the last few keys: reading a key makes it the most recently used, and keeping one
 * more than `limit` drops the least recently used, so open-ended keys (seeds, queries) keep memory
 * bounded.
 */
export class RecentMemo<T> {
  readonly #entries = new Map<string, T>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The value kept for `key`, else `compute()`'s, kept as the most recently used. */
  get(key: string, compute: () => T): T {
    const entries = this.#entries;
    let value: T;
    if (entries.has(key)) {
      value = entries.get(key) as T;
      entries.delete(key); // re-inserted below: a Map iterates in insertion order, oldest first
    } else {
      value = compute();
      if (entries.size >= this.#limit) entries.delete(entries.keys().next().value!);
    }
    entries.set(key, value);
    return value;
  }
}
