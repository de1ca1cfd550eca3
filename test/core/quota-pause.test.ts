// Calls held by a client's own quota: aborted while they wait, and paused by a retried 429.
import { describe, expect, it } from 'vitest';
import { RateLimitError, RequestAbortedError } from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { gate, json, OTHER_TEST_KEY, testClient, useMsw } from '../support.js';
import { at, countries, limited, once, serveOn, subjects, tick } from './quota-setup.js';

const server = useMsw();
const serve = serveOn(server);

describe('a call waiting for its turn is aborted by its signal at once, and never sent', () => {
  /**
   * Aborts `call`'s signal and checks that it rejects while nothing else moves: the clock stands still
   * and the slot stays held until this returns, so an abort that waited for a timer, a slot or a
   * request's end would never settle. (It may take turns of the event loop: the error's cause is
   * cleaned of the key by a module loaded on demand.)
   */
  async function abortWaiting(controller: AbortController, call: Promise<unknown>) {
    const outcome = rejection(call);
    controller.abort(new Error('user gave up'));
    expect(await outcome).toBeInstanceOf(RequestAbortedError);
  }

  it('behind maxConcurrency', async () => {
    const held = gate();
    const log = serve({
      '/subjects': async () => {
        await held.promise;
        return json(subjects);
      },
      '/countries': () => json(countries),
    });
    const sdk = testClient({ maxConcurrency: 1 });
    const first = sdk.subjects.list();
    while (log.length === 0) await tick();
    const controller = new AbortController();
    await abortWaiting(controller, sdk.countries.list(undefined, { signal: controller.signal }));
    held.open();
    await first;
    await tick();
    expect(log.map((entry) => entry.path)).toEqual(['/subjects']);
  });

  it('behind maxRequestsPerMinute', async () => {
    useFakeClock();
    const log = serve({ '/subjects': () => json(subjects), '/countries': () => json(countries) });
    const sdk = testClient({ maxRequestsPerMinute: 1 });
    await sdk.subjects.list();
    const controller = new AbortController();
    const waiting = sdk.countries.list(undefined, { signal: controller.signal });
    await at(1_000);
    await abortWaiting(controller, waiting);
    await at(180_000);
    expect(log.map((entry) => entry.path)).toEqual(['/subjects']);
  });

  it('during a 429 pause', async () => {
    useFakeClock();
    const log = serve({
      '/subjects': once(limited(2), () => json(subjects)),
      '/countries': () => json(countries),
    });
    const sdk = testClient();
    const first = sdk.subjects.list();
    await at(100);
    const controller = new AbortController();
    const waiting = sdk.countries.list(undefined, { signal: controller.signal });
    await at(500);
    await abortWaiting(controller, waiting);
    await at(5_000);
    expect(await first).toEqual(subjects);
    expect(log.map((entry) => entry.path)).toEqual(['/subjects', '/subjects']);
  });
});

describe('a retried 429 pauses every request of the client', () => {
  it('with no limits set: a request started during the pause waits out the Retry-After', async () => {
    useFakeClock();
    const log = serve({
      '/subjects': once(limited(2), () => json(subjects)),
      '/countries': () => json(countries),
    });
    const sdk = testClient();
    const a = sdk.subjects.list();
    await at(100);
    const b = sdk.countries.list();
    await at(1_999);
    expect(log).toEqual([{ path: '/subjects', at: 0 }]);
    await at(2_000);
    expect(await a).toEqual(subjects);
    expect(await b).toEqual(countries);
    expect(log.slice(1).map((entry) => entry.at)).toEqual([2_000, 2_000]);
  });

  it.each([
    ['the Retry-After', 2, 2_000],
    // Retry-After: 0 does not skip the backoff (500 ms with the jitter pinned), for the queue either.
    ['the backoff, for a Retry-After of 0', 0, 500],
  ])('under maxConcurrency: a request queued behind the 429 waits out %s too', async (_, seconds, waitMs) => {
    useFakeClock();
    const log = serve({
      '/subjects': once(limited(seconds), () => json(subjects)),
      '/countries': () => json(countries),
    });
    const sdk = testClient({ maxConcurrency: 1 });
    const a = sdk.subjects.list();
    const b = sdk.countries.list();
    await at(waitMs - 1);
    // B waited for A's turn; once A drew the 429, it waits for the pause like any other request.
    expect(log).toEqual([{ path: '/subjects', at: 0 }]);
    await at(waitMs);
    expect(await a).toEqual(subjects);
    expect(await b).toEqual(countries);
    expect(log.slice(1).every((entry) => entry.at >= waitMs)).toBe(true);
  });

  it('a 429 with Retry-After over 60 s is not retried, and pauses nothing', async () => {
    useFakeClock();
    const log = serve({ '/subjects': limited(120), '/countries': () => json(countries) });
    const sdk = testClient();
    expect(await rejection(sdk.subjects.list())).toBeInstanceOf(RateLimitError);
    const b = sdk.countries.list();
    await at(0);
    expect(await b).toEqual(countries);
    expect(log).toEqual([
      { path: '/subjects', at: 0 },
      { path: '/countries', at: 0 },
    ]);
  });

  it('another client, or a child with another key, is not paused; a child on the same key is', async () => {
    useFakeClock();
    const log = serve({
      '/subjects': once(limited(2), () => json(subjects)),
      '/countries': () => json(countries),
      '/journals': () => json([]),
      '/authors/7': () =>
        json({ id: 7, name: 'Ada', orcid: '0000-0002-1825-0097', affil: 'U', h_index: 9, papers: [] }),
    });
    const sdk = testClient();
    const a = sdk.subjects.list();
    await at(100);
    const other = testClient().countries.list();
    const otherKey = sdk.withOptions({ apiKey: OTHER_TEST_KEY }).journals.list();
    const sameKey = sdk.withOptions({ timeout: 5_000, headers: { 'x-child': '1' } }).authors.get(7);
    await at(1_999);
    expect(log.map((entry) => entry.path).sort()).toEqual(['/countries', '/journals', '/subjects']);
    expect(log.slice(1).map((entry) => entry.at)).toEqual([100, 100]);
    await at(2_000);
    await Promise.all([a, other, otherKey, sameKey]);
    expect(log.find((entry) => entry.path === '/authors/7')?.at).toBe(2_000);
  });
});
