/**
 * What the cache asks of a store, whichever it is: strings in and out, lifetimes in ms. What a write,
 * delete or clear resolves to is not read.
 */
export interface Store {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, ttl: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  clear(): Promise<unknown>;
}
