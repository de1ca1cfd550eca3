import type { FirstLoadParts } from './first-load-parts.js';
import type { CacheStore } from './options.js';
import type { Store } from './store.js';

/**
 * How long one operation of the user's store may take before the cache does without it. A Redis
 * client that lost its server may queue commands until it is back: a call must not wait for that.
 */
export const storeTimeout = 1_000;

/** What a Keyv has to tell of the errors it catches. */
interface Telling {
  on?(event: 'error', listener: (error: unknown) => void): unknown;
}

/** The errors each Keyv has told: counted by one listener a store, whatever the clients over it. */
const tellings = new WeakMap<CacheStore, { told: number; last: unknown }>();

/**
 * What `keyv` tells, listened to once: a server that makes a client per tenant key over one store
 * must not add a listener to it with each.
 */
function tellingOf(keyv: CacheStore): { told: number; last: unknown } {
  let telling = tellings.get(keyv);
  if (telling === undefined) {
    const heard = { told: 0, last: undefined as unknown };
    try {
      (keyv as Telling).on?.('error', (error) => {
        heard.told++;
        heard.last = error;
      });
    } catch {
      // A store whose `on` throws tells no errors: its operations' own failures still count.
    }
    tellings.set(keyv, heard);
    telling = heard;
  }
  return telling;
}

/** The user's Keyv (5 or 6, any adapter), each operation bounded by {@link storeTimeout}. */
export function keyvStore(keyv: CacheStore, { MetricError }: Pick<FirstLoadParts, 'MetricError'>): Store {
  // A Keyv catches its adapter's errors, tells them as 'error' events and resolves anyway (unless its
  // throwOnErrors is set): an error told while an operation runs is that operation failing.
  const telling = tellingOf(keyv);
  // A timer of its own, not the receivers' timeLimit: shared with this on-demand module, that one
  // would be cut out into a chunk of its own, one more for the client's first load to fetch.
  const bounded = <T>(what: string, run: () => Promise<T> | T): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new MetricError(`the cache store did not answer ${what} within ${storeTimeout} ms`)),
        storeTimeout,
      );
    });
    const before = telling.told;
    const failIfTold = (value: T) => {
      if (telling.told === before) return value;
      throw new MetricError(`the cache store failed ${what}`, { cause: telling.last });
    };
    // `run` may throw synchronously (keyv 6 rethrows a store's error): that is a rejection here too.
    return Promise.race([Promise.resolve().then(run), late])
      .then(failIfTold)
      .finally(() => clearTimeout(timer));
  };
  return {
    get: (key) => bounded('a read', () => keyv.get(key)),
    set: (key, value, ttl) => {
      const writing = Promise.resolve().then(() => keyv.set(key, value, ttl));
      return bounded('a write', () => writing).catch((error: unknown) => {
        // A write given up on may still land, after an event that should have dropped it: once it
        // settles, it is taken out again (a miss costs a request; a stale answer would be served).
        const undo = () => keyv.delete(key);
        writing.then(undo, undo).catch(() => {});
        throw error;
      });
    },
    delete: (key) => bounded('a delete', () => keyv.delete(key)),
    clear: () => bounded('clear()', () => keyv.clear()),
  };
}
