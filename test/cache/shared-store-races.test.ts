// A shared store between processes (here: clients with caches of their own over one Map). A request
// in flight when another process applies an event must not leave its older answer where others read
// it: not in place of a fresher one, not when the store fails the check after writing, and a call
// that joined it after the event must not get it either.
import { describe, expect, it, vi } from 'vitest';
import type { ClientOptions, MetricClient } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { testClient } from '../support.js';
import { gatedFetch, newScoreFor } from './helpers.js';

/** What a test does to one client's store reads: runs before each read of a key with `#event`. */
type OnMarkerRead = () => Promise<void> | void;

/**
 * Clients over one mock API and one Map through the cache's plain store interface: processes sharing
 * a store. A client may be given `onMarkerRead`, run before each of its reads of an event marker.
 */
function processes() {
  const api = createMockApi();
  const map = new Map<string, string>();
  const clientOf = (options: ClientOptions = {}, onMarkerRead?: OnMarkerRead) => {
    const store = {
      async get(key: string) {
        if (key.includes('#event') && onMarkerRead !== undefined) await onMarkerRead();
        return map.get(key);
      },
      set: async (key: string, value: string) => map.set(key, value),
      delete: async (key: string) => map.delete(key),
      clear: async () => map.clear(),
    };
    return testClient({ cache: { store }, ...options }, api);
  };
  return { api, clientOf };
}

/** A gate a store read waits at once armed, and how many reads are waiting there. */
function markerGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gate = { armed: false, waiting: 0, open };
  const onMarkerRead: OnMarkerRead = async () => {
    if (!gate.armed) return;
    gate.waiting++;
    await opened;
  };
  return { gate, onMarkerRead };
}

/** `journals.get(id)` of `client`, the score and whether it was a hit. */
async function read(client: MetricClient, id: number) {
  const { data, cacheStatus } = await client.journals.get(id).withResponse();
  return [cacheStatus, data.metric_score];
}

describe('a shared store, a request in flight when another process applies an event', () => {
  it('its older answer never takes the place of the fresher one another process kept', async () => {
    const { api, clientOf } = processes();
    const receiver = clientOf({ timeout: 100, maxRetries: 0 });
    const score = await newScoreFor(receiver, 7);
    const gated = gatedFetch(api);
    const { gate, onMarkerRead } = markerGate();
    const slow = clientOf({ fetch: gated.fetch }, onMarkerRead).journals.get(7);
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    const { event } = await api.updateScore(7, score);
    await receiver.cache!.apply(event);
    const reader = clientOf();
    expect(await read(reader, 7)).toEqual(['miss', score]);
    // The slow request's answer is in; it reads the marker, slowly.
    gate.armed = true;
    gated.release();
    await vi.waitFor(() => expect(gate.waiting).toBe(1));
    expect(await read(reader, 7)).toEqual(['hit', score]);
    gate.open();
    expect((await slow).metric_score).not.toBe(score);
    expect(await read(reader, 7)).toEqual(['hit', score]);
  });

  it('an answer whose check after writing fails (the store errs) is not left in place', async () => {
    const { api, clientOf } = processes();
    let reads: number | undefined;
    const gated = gatedFetch(api);
    const slow = clientOf({ fetch: gated.fetch }, () => {
      // Once its answer is in, the slow process's store answers one read of the marker (the check
      // before writing), then fails: the answer written is unchecked.
      if (reads !== undefined && reads++ > 0) throw new Error('store timed out');
    }).journals.get(8);
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    reads = 0;
    gated.release();
    await slow;
    expect((await clientOf().journals.get(8).withResponse()).cacheStatus).toBe('miss');
  });

  it('a call that joined it after the event gets the new score; the call that sent it, the answer it got', async () => {
    const { api, clientOf } = processes();
    const receiver = clientOf({ timeout: 100, maxRetries: 0 });
    const score = await newScoreFor(receiver, 9);
    const gated = gatedFetch(api);
    const worker = clientOf({ fetch: gated.fetch });
    const first = worker.journals.get(9);
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    const { event } = await api.updateScore(9, score);
    await receiver.cache!.apply(event);
    const joined = worker.journals.get(9);
    gated.release();
    expect((await first).metric_score).not.toBe(score);
    expect((await joined).metric_score).toBe(score);
  });
});
