// What a forged `score_updated` event can cost (the webhook carries no signature): it drops only what
// it contradicts, leaves nothing in the memory store, and a shared store's markers stay few and short.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Keyv from 'keyv';
import { describe, expect, it, vi } from 'vitest';
import { cacheParts } from '../../src/cache/client-cache.js';
import { clockSkew } from '../../src/cache/entry-checks.js';
import { markerLifetimeOf } from '../../src/cache/events.js';
import { maxEventsInFlight } from '../../src/cache/events-in-flight.js';
import { markerSlots } from '../../src/cache/keys.js';
import type { MetricClient } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { useFakeClock } from '../helpers/fake-clock.js';
import { testClient, useMockServer } from '../support.js';
import { answerKeys, cachedClient, eventsInFlight } from './helpers.js';

const forged = (journal_id: number, new_score = 50, timestamp = '2026-01-01T00:00:00Z', quartile = 'Q1') => ({
  event: 'score_updated' as const,
  journal_id,
  old_score: 1,
  new_score,
  quartile,
  timestamp,
});

describe('forged score_updated events', { timeout: 60_000 }, () => {
  const mock = useMockServer();
  const sent = () => mock.api.requests.length;
  const paths = (from: number) => mock.api.requests.slice(from).map((r) => r.path.replace('/api/v1', ''));

  it('a thousand events for made-up journals evict no answer from memory and cost no request', async () => {
    const client = testClient({ cache: true }, mock.server);
    const warm = async () => {
      for (let id = 1; id <= 20; id++) await client.journals.get(id);
      await client.journals.list();
      await client.subjects.list();
      await client.countries.list();
    };
    await warm();
    for (let i = 0; i < 1_000; i++) await client.cache!.apply(forged(1_000_000 + i));
    const before = sent();
    await warm();
    expect(paths(before)).toEqual([]);
  });

  it('keeps the list for an event about a journal it does not hold, or whose score it shows', async () => {
    const client = testClient({ cache: true }, mock.server);
    const list = await client.journals.list();
    const listed = list[0]!;
    const absent = Math.max(...list.map((journal) => journal.id)) + 1_000;
    const before = sent();
    for (let i = 0; i < 50; i++) await client.cache!.apply(forged(absent + i));
    await client.cache!.apply(forged(listed.id, listed.metric_score, undefined, listed.quartile));
    await client.journals.list();
    expect(paths(before)).toEqual([]);
    // An event that the list contradicts drops it: one request, once.
    await client.cache!.apply(forged(listed.id, listed.metric_score + 1, undefined, listed.quartile));
    await client.journals.list();
    await client.journals.list();
    expect(paths(before)).toEqual(['/journals']);
  });

  it('keeps a profile and history that show the new score and are newer than the event', async () => {
    useFakeClock({ date: true });
    const client = testClient({ cache: true }, mock.server);
    const journal = await client.journals.get(11);
    const history = await client.journals.score(11);
    const keptAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const before = sent();
    // Older than what is kept, and showing its score: nothing to drop.
    await client.cache!.apply(forged(11, journal.metric_score, '2025-12-31T23:00:00Z', journal.quartile));
    await client.cache!.apply(forged(11, history.current, keptAt, history.quartile));
    await client.journals.get(11);
    await client.journals.score(11);
    expect(paths(before)).toEqual([]);
    // The same score, but an event after the answers were kept: they may predate it, so they go.
    await client.cache!.apply(forged(11, journal.metric_score, '2026-01-01T01:00:00Z', journal.quartile));
    await client.journals.get(11);
    await client.journals.score(11);
    expect(paths(before)).toEqual(['/journals/11', '/journals/11/score']);
    // An event that says nothing of the score (no new_score): apply's type refuses it, yet it drops.
    await client.cache!.apply({ event: 'score_updated', journal_id: 11 } as never);
    await client.journals.get(11);
    expect(paths(before).length).toBe(3);
  });

  it('costs at most three requests, once, whatever it says', async () => {
    const client = testClient({ cache: true }, mock.server);
    await client.journals.get(12);
    await client.journals.score(12);
    await client.journals.list();
    await client.journals.papers(12);
    const before = sent();
    for (let i = 0; i < 20; i++) await client.cache!.apply(forged(12, -1 - i, '2099-01-01T00:00:00Z'));
    for (let i = 0; i < 3; i++) {
      await client.journals.get(12);
      await client.journals.score(12);
      await client.journals.list();
      await client.journals.papers(12);
    }
    expect(paths(before).sort()).toEqual(['/journals', '/journals/12', '/journals/12/score']);
  });

  it('in a shared store, marks only what was asked for lately: short-lived markers, at most one per slot', async () => {
    const map = new Map<string, unknown>();
    const store = new Keyv({ store: map });
    const client = testClient({ cache: { store }, timeout: 2_000, maxRetries: 1 }, mock.server);
    await client.subjects.list();
    await client.journals.get(5);
    for (let i = 0; i < 3_000; i++) await client.cache!.apply(forged(1 + i));
    const markers = [...map.keys()].filter((key) => key.includes('#event'));
    // Journal 5's slot, since its request said it was in flight; none for the journals nobody asked for.
    expect(markers).toEqual([expect.stringMatching(/#event:5$/)]);
    expect(markers.length).toBeLessThanOrEqual(markerSlots + 1);
    const lifetime = markerLifetimeOf(2_000, 1, cacheParts);
    expect(lifetime).toBeLessThan(5 * 60_000);
    for (const key of [...markers, ...[...map.keys()].filter((key) => key.includes('#flight'))]) {
      const { expires } = JSON.parse(map.get(key) as string) as { expires: number };
      expect(expires - Date.now()).toBeLessThanOrEqual(lifetime);
    }
    // The answer kept before the flood is still served.
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
  });

  it('with a shared store, an answer slower than a marker lives is not kept (its marker may be gone)', async () => {
    useFakeClock({ date: true });
    const map = new Map<string, unknown>();
    const lifetime = markerLifetimeOf(2_000, 1, cacheParts);
    let lateBy = 0;
    // Real requests; the clock jumps while one is in flight, as a long run of retries would make it.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      vi.setSystemTime(Date.now() + lateBy);
      return response;
    };
    const client = testClient(
      { cache: { store: new Keyv({ store: map }) }, timeout: 2_000, maxRetries: 1, fetch },
      mock.server,
    );
    const kept = () => answerKeys(map).filter((key) => key.endsWith(':/journals/13')).length;
    lateBy = lifetime + 1;
    expect((await client.journals.get(13).withResponse()).cacheStatus).toBe('miss');
    expect(kept()).toBe(0);
    lateBy = lifetime - 1_000;
    await client.journals.get(13);
    expect(kept()).toBe(1);
    // Only what an event can make wrong waits on a marker: other answers are kept however slow.
    lateBy = lifetime + 1;
    await client.subjects.list();
    expect([...map.keys()].some((key) => key.endsWith(':/subjects'))).toBe(true);
  });

  it('a concurrent call joins a request in flight that a made-up event did not contradict', async () => {
    const api = createMockApi();
    let gate: Promise<void> | undefined;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await api.fetch(input, init);
      await gate;
      return response;
    };
    const { client, sent } = cachedClient({ fetch }, api);
    const [listed] = await client.journals.list();
    await client.cache!.apply(forged(listed!.id, listed!.metric_score + 1, undefined, listed!.quartile));
    let release!: () => void;
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const first = client.journals.list();
    await vi.waitFor(() => expect(sent()).toBe(2));
    await client.cache!.apply(forged(2_000_000));
    const second = client.journals.list();
    release();
    expect(await second).toEqual(await first);
    expect(sent()).toBe(2);
    expect((await client.journals.list().withResponse()).cacheStatus).toBe('hit');
  });

  it('the docs state the bounds the code holds', () => {
    const read = (page: string) => readFileSync(join(import.meta.dirname, '../../docs', page), 'utf8');
    const count = (n: number) => n.toLocaleString('en-US');
    expect(read('cache.md').replace(/\s+/g, ' ')).toContain(`journals share ${count(markerSlots)} of them`);
    for (const page of ['cache.md', 'webhooks.md', 'reliability.md']) {
      expect(read(page).replace(/\s+/g, ' ')).toContain(`${count(markerSlots + 1)} short-lived markers`);
    }
    expect(clockSkew).toBe(60_000);
    expect(read('cache.md').replace(/\s+/g, ' ')).toContain('more than a minute in the future');
    expect(read('cache.md').replace(/\s+/g, ' ')).toContain(`more than ${count(maxEventsInFlight)} events`);
  });
});

// A trickle of made-up events beside a stream of calls: one lands while each request is in flight,
// and one between calls. After one event that does contradict what is kept, one request refills it.
describe.each([
  ['the memory store', () => true as const],
  ['a shared store', () => ({ store: new Keyv({ store: new Map() }) })],
])('made-up events beside 100 calls, %s', (_, cache) => {
  /** A client whose requests each see `madeUp()`'s event applied while in flight, once `trickle.on`. */
  const setup = (madeUp: () => number) => {
    const api = createMockApi();
    let client!: MetricClient;
    const { fetch, trickle } = eventsInFlight(api.fetch, () => client.cache!.apply(forged(madeUp())));
    ({ client } = cachedClient({ fetch, cache: cache() }, api));
    const sentSince = (from: number) => api.requests.slice(from).map((request) => request.path);
    return { client, trickle, sent: () => api.requests.length, sentSince };
  };

  it('journals.list: one request, however many events', async () => {
    let next = 1_000_000;
    const { client, trickle, sent, sentSince } = setup(() => next++);
    const [listed] = await client.journals.list();
    await client.cache!.apply(forged(listed!.id, listed!.metric_score + 1, undefined, listed!.quartile));
    trickle.on = true;
    const before = sent();
    for (let i = 0; i < 100; i++) {
      await client.cache!.apply(forged(next++));
      await client.journals.list();
    }
    expect(sentSince(before)).toEqual(['/api/v1/journals']);
    expect(trickle.applied).toBe(1);
  });

  it('journals.get(42): events for journals 42 + 1024k cost nothing', async () => {
    let k = 1;
    const { client, trickle, sent, sentSince } = setup(() => 42 + 1024 * k++);
    const journal = await client.journals.get(42);
    await client.cache!.apply(forged(42, journal.metric_score + 1, '2099-01-01T00:00:00Z'));
    trickle.on = true;
    const before = sent();
    for (let i = 0; i < 100; i++) {
      await client.cache!.apply(forged(42 + 1024 * k++));
      await client.journals.get(42);
    }
    expect(sentSince(before)).toEqual(['/api/v1/journals/42']);
    expect(trickle.applied).toBe(1);
  });
});
