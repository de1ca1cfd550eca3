// In a shared store, a request in flight in one process learns of an event applied in another through
// a marker. The marker must outlive the request, whichever process applies the event: here the
// applier is a fail-fast client (a webhook receiver, timeout 100 ms, no retry) whose own requests end
// within about three seconds, while the request in flight belongs to a client that may wait minutes.
import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { held, newScoreFor, sharedStore } from './helpers.js';

/** Longer than a fail-fast client's requests can take (and its markers live), far shorter than a default client's. */
const pastFailFast = 5_000;

/** Moves the clock (the store's expiries with it) and fires no timer: no request times out. */
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('a marker in a shared store, applied by a client with a shorter lifetime', () => {
  it('outlives a slow request of another client: its answer, older than the event, is not kept', async () => {
    useFakeClock();
    const { api, clientOf, failFast } = sharedStore();
    const receiver = failFast();
    const score = await newScoreFor(receiver, 7);
    const slow = await held(api, clientOf, 7);
    const { event } = await api.updateScore(7, score);
    await receiver.cache!.apply(event);
    later(pastFailFast);
    slow.release();
    expect((await slow.call).metric_score).not.toBe(score);
    const next = await clientOf().journals.get(7).withResponse();
    expect([next.cacheStatus, next.data.metric_score]).toEqual(['miss', score]);
  });

  it('a fail-fast request of the same path does not shorten what the slow one recorded', async () => {
    useFakeClock();
    const { api, clientOf, failFast } = sharedStore();
    const receiver = failFast();
    const score = await newScoreFor(receiver, 8);
    const slow = await held(api, clientOf, 8);
    // Another process asks for the same journal and is answered at once.
    expect((await failFast().journals.get(8).withResponse()).cacheStatus).toBe('miss');
    later(pastFailFast);
    const { event } = await api.updateScore(8, score);
    await receiver.cache!.apply(event);
    later(pastFailFast);
    slow.release();
    expect((await slow.call).metric_score).not.toBe(score);
    const next = await clientOf().journals.get(8).withResponse();
    expect([next.cacheStatus, next.data.metric_score]).toEqual(['miss', score]);
  });

  it('an event for a journal sharing the slot (id + 1024) does not shorten the marker', async () => {
    useFakeClock();
    const { api, clientOf, failFast } = sharedStore();
    const receiver = failFast();
    const score = await newScoreFor(receiver, 9);
    const slow = await held(api, clientOf, 9);
    // A fail-fast request of journal 1033 (which the mock lacks) is in flight too, so that an event
    // for it writes the same slot.
    const other = await held(api, failFast, 9 + 1024);
    const { event } = await api.updateScore(9, score);
    await receiver.cache!.apply(event);
    await receiver.cache!.apply({ ...event, journal_id: 9 + 1024 });
    later(pastFailFast);
    slow.release();
    other.release();
    await expect(other.call).rejects.toBeInstanceOf(NotFoundError);
    expect((await slow.call).metric_score).not.toBe(score);
    const next = await clientOf().journals.get(9).withResponse();
    expect([next.cacheStatus, next.data.metric_score]).toEqual(['miss', score]);
  });

  it('a request slower than its own client allows is still not kept', async () => {
    useFakeClock();
    const { api, clientOf } = sharedStore();
    const slow = await held(api, (options) => clientOf({ ...options, timeout: 1_000, maxRetries: 0 }), 10);
    later(60_000);
    slow.release();
    await slow.call;
    expect((await clientOf().journals.get(10).withResponse()).cacheStatus).toBe('miss');
  });
});
