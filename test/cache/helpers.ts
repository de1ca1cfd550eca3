import Keyv from 'keyv';
import { expect, vi } from 'vitest';
import type { ClientOptions, MetricClient } from '../../src/index.js';
import { createMockApi, type MockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';

/** A mock and a client over it (in-process, no sockets); `sent()` counts the API requests. */
export function cachedClient(options: ClientOptions = {}, api: MockApi = createMockApi()) {
  const client = testClient({ cache: true, ...options }, api);
  return { api, client, sent: () => api.requests.length };
}

/**
 * The keys of a shared store's map that hold answers, leaving out what the cache keeps about events
 * (a request in flight, the journals listed, a marker): those keys hold a `#`.
 */
export function answerKeys(map: Map<string, unknown>): string[] {
  return [...map.keys()].filter((key) => !key.includes('#'));
}

/**
 * A fetch over the mock whose answers are made at once but handed over only after `release()`: a
 * request stays in flight for as long as a test needs, without any timer.
 */
export function gatedFetch(api: MockApi) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = 0;
  let aborted = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    started++;
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const aborts = new Promise<never>((_, reject) => {
      const onAbort = () => {
        aborted++;
        reject(signal?.reason);
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborts.catch(() => {});
    const response = await api.fetch(input, init);
    await Promise.race([gate, aborts]);
    return response;
  };
  return { fetch, release, started: () => started, aborted: () => aborted };
}

/**
 * A fetch that, once `on` is set, runs `during()` (a made-up event applied to the cache) while each
 * request is in flight, after its answer is made and before it is handed over. Events at 50/s against
 * requests of 20 ms or more land at least this often; here no timer decides whether they overlap.
 */
export function eventsInFlight(fetch: typeof globalThis.fetch, during: () => Promise<void>) {
  const trickle = { on: false, applied: 0 };
  const wrapped: typeof globalThis.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (trickle.on) {
      await during();
      trickle.applied++;
    }
    return response;
  };
  return { fetch: wrapped, trickle };
}

/** Clients over one mock API and one Map, each through a Keyv of its own: processes sharing a store. */
export function sharedStore() {
  const api = createMockApi();
  const map = new Map<string, unknown>();
  const clientOf = (options: Parameters<typeof testClient>[0] = {}) =>
    testClient({ cache: { store: new Keyv({ store: map }) }, ...options }, api);
  const failFast = (options: Parameters<typeof testClient>[0] = {}) =>
    clientOf({ timeout: 100, maxRetries: 0, ...options });
  return { api, clientOf, failFast };
}

/** A request for journal `id`, by a client `clientOf` makes, held in flight until `release()`. */
export async function held(
  api: MockApi,
  clientOf: (options: { fetch: typeof fetch }) => MetricClient,
  id: number,
) {
  const gated = gatedFetch(api);
  const call = clientOf({ fetch: gated.fetch }).journals.get(id);
  await vi.waitFor(() => expect(gated.started()).toBe(1));
  return { call, release: gated.release };
}

/** A score the journal does not show. */
export const newScoreFor = async (client: MetricClient, id: number) =>
  (await client.journals.get(id, { cache: false })).metric_score === 61 ? 62 : 61;

/**
 * A store over a Map whose reads can be held: after `hold()`, each read waits for `release()`, or
 * for ever; `held()` tells whether one is waiting.
 */
export function holdingStore() {
  const map = new Map<string, unknown>();
  let holding = false;
  let release: (() => void) | undefined;
  const store = {
    get: async (key: string) => {
      if (holding) await new Promise<void>((resolve) => (release = resolve));
      return map.get(key);
    },
    set: async (key: string, value: unknown) => map.set(key, value),
    delete: async (key: string) => map.delete(key),
    clear: async () => map.clear(),
  };
  return {
    store,
    hold: () => {
      holding = true;
    },
    held: () => release !== undefined,
    release: () => release?.(),
  };
}
