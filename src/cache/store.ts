/** What the cache asks of a store, whichever it is: strings in and out, lifetimes in ms. */
export interface Store {
  get(key: string): Promise<unknown>;
  set(key: string, value: string, ttl: number): Promise<void>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
}
