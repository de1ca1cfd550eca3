// A Keyv catches its adapter's errors, tells them as 'error' events and resolves anyway (unless its
// throwOnErrors is set): the cache takes an error told during an operation as that operation failing.
import Keyv from 'keyv';
import Keyv6 from 'keyv6';
import { describe, expect, it, vi } from 'vitest';
import { keyvStore, storeTimeout } from '../../src/cache/keyv-store.js';
import { MetricError } from '../../src/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { recordingLogger } from '../support.js';
import { cachedClient } from './helpers.js';

/** An adapter over a Map whose operations fail, as a lost database's would, once `down` is set. */
function failingAdapter() {
  const map = new Map<string, unknown>();
  const state = { down: false };
  const up = () => {
    if (state.down) throw new Error('ECONNRESET');
  };
  const adapter = {
    get: async (key: string) => {
      up();
      return map.get(key);
    },
    set: async (key: string, value: unknown) => {
      up();
      map.set(key, value);
      return true;
    },
    delete: async (key: string) => {
      up();
      return map.delete(key);
    },
    clear: async () => {
      up();
      map.clear();
    },
    on() {
      return this;
    },
  };
  return { adapter, state };
}

// Keyv 5 tells no failed read (its get resolves undefined, without an event) unless throwOnErrors is set,
// as docs/cache.md advises; Keyv 6 tells every failure.
describe.each([
  ['keyv 5 with throwOnErrors', (store: object) => new Keyv({ store, throwOnErrors: true })],
  ['keyv 6', (store: object) => new Keyv6({ store })],
])('a %s whose adapter fails', (_name, keyvOver) => {
  it('makes apply and clear reject, and a receiver with cacheFailure "reject" answer 503', async () => {
    const { adapter, state } = failingAdapter();
    const store = keyvOver(adapter);
    store.on('error', () => {});
    const { api, client } = cachedClient({ cache: { store } });
    await client.journals.get(7);
    state.down = true;
    const { event } = await api.updateScore(7, 81);
    await expect(client.cache!.apply(event)).rejects.toThrow(/could not drop journal 7/);
    await expect(client.cache!.clear()).rejects.toThrow(/could not be cleared/);
    const receive = createWebhookHandler(() => {}, { cache: client.cache, cacheFailure: 'reject' });
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: JSON.stringify(event) });
    expect((await receive(request)).status).toBe(503);
  });

  it('makes a call go to the API with a warning, never a hit read from a failed store', async () => {
    const { adapter, state } = failingAdapter();
    const { lines, logger } = recordingLogger();
    const { client, sent } = cachedClient({ cache: { store: keyvOver(adapter) }, logLevel: 'warn', logger });
    await client.journals.get(7);
    state.down = true;
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(2);
    expect(lines.some((line) => /the cache store failed; going to the API/.test(line.message))).toBe(true);
  });
});

describe('one Keyv under many clients (a client per tenant key)', () => {
  it('holds one listener of the caches, however many clients came and went, and each still hears its failures', async () => {
    const { adapter, state } = failingAdapter();
    const store = new Keyv({ store: adapter });
    store.on('error', () => {});
    const clients = Array.from({ length: 20 }, () => cachedClient({ cache: { store } }).client);
    for (const client of clients) await client.journals.get(7);
    // The user's own listener, and the caches' one.
    expect(store.listeners('error')).toHaveLength(2);
    state.down = true;
    for (const client of clients.slice(0, 3))
      await expect(client.cache!.clear()).rejects.toThrow(/could not be cleared/);
  });
});

describe('a keyv 5 left to swallow its errors', () => {
  it('still makes clear reject: the failure it tells as an error event is that operation failing', async () => {
    const { adapter, state } = failingAdapter();
    const store = new Keyv({ store: adapter });
    store.on('error', () => {});
    const { client } = cachedClient({ cache: { store } });
    await client.journals.get(7);
    state.down = true;
    await expect(client.cache!.clear()).rejects.toThrow(/could not be cleared/);
  });
});

describe('a store that rejects with no error at all (null, undefined)', () => {
  it('makes a call go to the API with a warning, whether the client logs or not', async () => {
    for (const [failure, logLevel] of [
      [undefined, 'warn'],
      [null, 'warn'],
      [undefined, 'off'],
    ] as const) {
      const reject = async () => Promise.reject(failure);
      const adapter = Object.assign(new Map(), { get: reject, set: reject });
      const store = new Keyv({ store: adapter, throwOnErrors: true });
      const { lines, logger } = recordingLogger();
      const { client, sent } = cachedClient({ cache: { store }, logLevel, logger });
      expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
      expect(sent()).toBe(1);
      const warned = lines.filter((line) => /the cache store failed/.test(line.message));
      expect(warned.length > 0).toBe(logLevel === 'warn');
    }
  });
});

describe('a store whose on() throws (it tells no events)', () => {
  it('still serves: calls are sent and kept, clear resolves', async () => {
    const map = new Map<string, unknown>();
    const store = {
      get: async (key: string) => map.get(key),
      set: async (key: string, value: unknown) => map.set(key, value) && true,
      delete: async (key: string) => map.delete(key),
      clear: async () => map.clear(),
      on() {
        throw new Error('events are not supported by this store');
      },
    };
    const { client, sent } = cachedClient({ cache: { store } });
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect(sent()).toBe(1);
    await expect(client.cache!.clear()).resolves.toBeUndefined();
  });
});

describe('a write the cache gave up on', () => {
  it('is taken out again once it lands late, so an event meanwhile is not undone by it', async () => {
    vi.useFakeTimers();
    try {
      const map = new Map<string, unknown>();
      let land: () => void = () => {};
      const adapter = {
        get: async (key: string) => map.get(key),
        set: (key: string, value: unknown) =>
          new Promise<boolean>((resolve) => {
            land = () => resolve(map.set(key, value) && true);
          }),
        delete: async (key: string) => map.delete(key),
        clear: async () => map.clear(),
        on() {
          return this;
        },
      };
      const store = keyvStore(new Keyv({ store: adapter }), { MetricError });
      const writing = store.set('k', 'an old answer', 60_000).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(storeTimeout);
      expect(await writing).toBeInstanceOf(MetricError);
      land();
      // Keyv keeps it under its namespace: the map holds the write until the undo takes it out.
      expect(map.size).toBe(1);
      await vi.waitFor(() => expect(map.size).toBe(0));
    } finally {
      vi.useRealTimers();
    }
  });
});
