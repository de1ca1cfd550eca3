import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/core/user-agent.js';
import { MOCK_API_KEY, MOCK_ELITE_API_KEY } from '../../src/testing/index.js';
import { recordingLogger } from '../support.js';
import { answerKeys, cachedClient } from './helpers.js';

/** A Keyv over a Map the test can read and write behind the cache's back. */
function inspectableStore() {
  const map = new Map<string, unknown>();
  const store = new Keyv({ store: map });
  return { map, store };
}

/** The one kept entry's key, as the store holds it. */
const onlyKey = (map: Map<string, unknown>) => {
  expect(answerKeys(map)).toHaveLength(1);
  return answerKeys(map)[0]!;
};

describe('entries read back from the store', () => {
  it.each([
    ['not JSON', (value: string) => `${value.slice(0, value.indexOf('\n') + 1)}{"id": 7, "name":`],
    ['the wrong shape', (value: string) => `${value.slice(0, value.indexOf('\n') + 1)}{"id": "seven"}`],
    ['another SDK version', (value: string) => value.replace(`"v":"${VERSION}"`, '"v":"0.0.1"')],
    ['not an entry at all', () => 'hello'],
  ])('one holding %s is dropped and the request sent, without an error', async (_, spoil) => {
    const { map, store } = inspectableStore();
    const { lines, logger } = recordingLogger();
    const { client, sent } = cachedClient({ cache: { store }, logLevel: 'warn', logger });
    const kept = await client.journals.get(7);
    const key = onlyKey(map);
    const raw = await store.get<string>(key.replace(/^keyv:/, ''));
    await store.set(key.replace(/^keyv:/, ''), spoil(raw!));
    const answer = await client.journals.get(7).withResponse();
    expect(answer.cacheStatus).toBe('miss');
    expect(answer.data).toEqual(kept);
    expect(sent()).toBe(2);
    expect(lines.some((line) => line.level === 'warn' && /dropped a kept answer/.test(line.message))).toBe(
      true,
    );
    // The good answer took its place.
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
  });
});

describe('a store that fails', () => {
  const failing = {
    get: () => Promise.reject(new Error('ECONNREFUSED')),
    set: () => {
      throw new Error('ECONNREFUSED');
    },
    delete: () => Promise.reject(new Error('ECONNREFUSED')),
    clear: () => Promise.reject(new Error('ECONNREFUSED')),
  };

  it('makes every call go to the API, with a warning, never a failure', async () => {
    const { lines, logger } = recordingLogger();
    const { client, sent } = cachedClient({ cache: { store: failing }, logLevel: 'warn', logger });
    for (let n = 0; n < 3; n++) {
      expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    }
    expect(sent()).toBe(3);
    expect(lines.filter((line) => line.level === 'warn').length).toBeGreaterThanOrEqual(3);
    expect(lines.every((line) => /the cache store failed; going to the API/.test(line.message))).toBe(true);
  });

  it('cuts the API key out of its warnings, as every log line of the client', async () => {
    const { lines, logger } = recordingLogger();
    const leaking = { ...failing, get: () => Promise.reject(new Error(`no entry for ${MOCK_API_KEY}`)) };
    const { client } = cachedClient({ cache: { store: leaking }, logLevel: 'warn', logger });
    await client.journals.get(7);
    const text = JSON.stringify(lines);
    expect(text).toContain('no entry for [redacted]');
    expect(text).not.toContain(MOCK_API_KEY);
  });

  it('makes apply and clear reject, so that a receiver can log it', async () => {
    const { api, client } = cachedClient({ cache: { store: failing } });
    const { event } = await api.updateScore(7, 21);
    await expect(client.cache!.apply(event)).rejects.toThrow(/could not drop journal 7/);
    await expect(client.cache!.clear()).rejects.toThrow(/could not be cleared/);
  });

  it('one that never answers is given up on, and the call goes to the API', async () => {
    const { client, sent } = cachedClient({
      cache: {
        store: {
          get: () => new Promise(() => {}),
          set: () => new Promise(() => {}),
          delete() {},
          clear() {},
        },
      },
    });
    expect((await client.subjects.list()).length).toBeGreaterThan(0);
    expect(sent()).toBe(1);
  });
});

describe('what the store holds', () => {
  it('never the API key, in keys or values; never an error', async () => {
    const { map, store } = inspectableStore();
    const { api, client } = cachedClient({ cache: { store } });
    await client.journals.get(7);
    await client.journals.list();
    await client.papers.search({ year: 2021, per_page: 5 }).toArray({ limit: 8 });
    api.faults.next({ status: 404 });
    await expect(client.journals.get(8)).rejects.toThrow();
    await expect(client.journals.get(99_999)).rejects.toThrow();
    expect(answerKeys(map)).toHaveLength(4);
    for (const [key, value] of map) {
      expect(key).not.toContain(MOCK_API_KEY);
      expect(key).not.toContain(MOCK_API_KEY.slice(8, 24));
      expect(JSON.stringify(value)).not.toContain(MOCK_API_KEY);
      // What failed is not kept: only the note that it was in flight names it.
      if (!key.includes('#flight:')) expect(key).not.toMatch(/journals\/(8|99999)/);
    }
  });

  it('partitions by base URL and key: another key sees nothing of this one', async () => {
    const { store } = inspectableStore();
    const { api, client } = cachedClient({ cache: { store } });
    await client.subjects.list();
    const other = cachedClient({ cache: { store }, apiKey: MOCK_ELITE_API_KEY }, api);
    expect((await other.client.subjects.list().withResponse()).cacheStatus).toBe('miss');
  });

  it('a withOptions child with another key keeps its answers in its parent’s cache, apart, and hears its events', async () => {
    // The memory store: one per cache, so only a shared cache lets the parent's events reach the child.
    const { api, client } = cachedClient({ cache: true });
    const child = client.withOptions({ apiKey: MOCK_ELITE_API_KEY });
    await client.journals.get(7);
    expect((await child.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    expect((await child.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    const before = (await child.journals.get(7)).metric_score;
    const { event } = await api.updateScore(7, before === 50 ? 51 : 50);
    await client.cache!.apply(event);
    const after = await child.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['miss', event.new_score]);
    // An answer that echoes the child's key is not kept, though the cache was made with the parent's.
    api.faults.next({
      status: 200,
      body: [{ id: 1, name: MOCK_ELITE_API_KEY, slug: 'x', journals: 1, papers: 1, citations: 1 }],
    });
    await child.subjects.list();
    expect((await child.subjects.list().withResponse()).cacheStatus).toBe('miss');
  });

  it('does not keep an answer that echoes the key', async () => {
    const { map, store } = inspectableStore();
    const { api, client } = cachedClient({ cache: { store } });
    api.faults.next({
      status: 200,
      body: [{ id: 1, name: MOCK_API_KEY, slug: 'x', journals: 1, papers: 1, citations: 1 }],
    });
    await client.subjects.list();
    expect(map.size).toBe(0);
  });

  it('does not keep an answer that echoes the key a single call sends in its own headers', async () => {
    const { map, store } = inspectableStore();
    const { api, client } = cachedClient({ cache: { store } });
    api.faults.next({
      status: 200,
      body: [{ id: 1, name: MOCK_ELITE_API_KEY, slug: 'x', journals: 1, papers: 1, citations: 1 }],
    });
    const asOther = { headers: { Authorization: `Bearer ${MOCK_ELITE_API_KEY}` } };
    await client.subjects.list(asOther);
    // Nor one that echoes the client's own key, on such a call.
    api.faults.next({
      status: 200,
      body: [{ id: 1, name: MOCK_API_KEY, slug: 'x', journals: 1, papers: 1, citations: 1 }],
    });
    await client.subjects.list(asOther);
    expect(map.size).toBe(0);
  });
});
