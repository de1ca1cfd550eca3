import { inspect } from 'node:util';
import Keyv from 'keyv';
import { describe, expect, it, vi } from 'vitest';
import {
  ConfigurationError,
  type MetricClient,
  RequestAbortedError,
  ResponseTooLargeError,
} from '../../src/index.js';
import { createMockApi, MOCK_API_KEY } from '../../src/testing/index.js';
import { recordingLogger, testClient } from '../support.js';
import { cachedClient, gatedFetch, holdingStore } from './helpers.js';

describe('cache: true (in memory)', () => {
  it('answers the second identical call from the cache, with the original request id and an Age header', async () => {
    const { client, sent } = cachedClient();
    const first = await client.journals.get(7).withResponse();
    expect(first.cacheStatus).toBe('miss');
    const second = await client.journals.get(7).withResponse();
    expect(sent()).toBe(1);
    expect(second.cacheStatus).toBe('hit');
    expect(second.data).toEqual(first.data);
    expect(second.requestId).toBe(first.requestId);
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get('age')).toMatch(/^\d+$/);
    expect(second.response.headers.get('content-type')).toBe(first.response.headers.get('content-type'));
  });

  it('hands each caller its own copy: changing one answer does not change the kept one', async () => {
    const { client } = cachedClient();
    const first = await client.journals.get(7);
    (first as { name: string }).name = 'changed';
    expect((await client.journals.get(7)).name).not.toBe('changed');
  });

  it('keeps each method, id and query apart', async () => {
    const { client, sent } = cachedClient();
    await client.journals.get(7);
    await client.journals.get(8);
    await client.journals.score(7);
    await client.papers.search({ q: 'graphene' });
    await client.papers.search({ q: 'graphene', year: 2021 });
    expect(sent()).toBe(5);
    await client.journals.get(8);
    await client.papers.search({ q: 'graphene', year: 2021 });
    expect(sent()).toBe(5);
  });

  it("cache: false neither reads nor writes; cache: 'refresh' sends and replaces the kept answer", async () => {
    const { api, client, sent } = cachedClient();
    await client.journals.get(7);
    const off = await client.journals.get(7, { cache: false }).withResponse();
    expect(off.cacheStatus).toBe('off');
    expect(sent()).toBe(2);
    // Changed behind the cache's back (no webhook delivered): a refresh still sees it.
    await api.updateScore(7, 99);
    expect((await client.journals.get(7)).metric_score).not.toBe(99);
    const refreshed = await client.journals.get(7, { cache: 'refresh' }).withResponse();
    expect(refreshed.cacheStatus).toBe('miss');
    expect(refreshed.data.metric_score).toBe(99);
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect((await client.journals.get(7)).metric_score).toBe(99);
    expect(sent()).toBe(3);
  });

  it('reports off without a cache, and client.cache is undefined', async () => {
    const { client } = cachedClient({ cache: undefined });
    expect(client.cache).toBeUndefined();
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('off');
  });

  it('walks, toArray and getMany go through the cache', async () => {
    const { client, sent } = cachedClient();
    const first = await client.journals.papers(7, { per_page: 5 }).toArray({ limit: 12 });
    const count = sent();
    expect(count).toBe(3);
    expect(await client.journals.papers(7, { per_page: 5 }).toArray({ limit: 12 })).toEqual(first);
    const walked = [];
    for await (const paper of client.journals.papers(7, { per_page: 5 })) {
      walked.push(paper);
      if (walked.length === 10) break;
    }
    expect(sent()).toBe(count);
    const page = await client.journals.papers(7, { per_page: 5 }).withResponse();
    expect(page.cacheStatus).toBe('hit');

    const dois = ['10.1000/abc/def', '10.1000/no-such-paper'];
    const once = await client.papers.getMany(dois);
    const before = sent();
    const again = await client.papers.getMany(dois);
    // The paper is kept; the 404 is not (errors are never kept).
    expect(sent()).toBe(before + 1);
    expect(again[0]).toEqual(once[0]);
    expect(again[1]?.error?.name).toBe('NotFoundError');
    await client.papers.get('10.1000/abc/def');
    expect(sent()).toBe(before + 1);
  });

  it('keeps a paper asked for by its DOI in another Unicode form or letter case than the server writes it', async () => {
    const { lines, logger } = recordingLogger();
    const { client, sent } = cachedClient({ logger, logLevel: 'warn' });
    // The mock writes DOIs as NFC, lower case; each is asked for decomposed (NFD) or in capitals.
    for (const doi of ['10.5555/üñí-ç'.normalize('NFD'), '10.1000/ABC/DEF']) {
      const before = sent();
      expect((await client.papers.get(doi).withResponse()).cacheStatus).toBe('miss');
      expect((await client.papers.get(doi).withResponse()).cacheStatus).toBe('hit');
      expect(sent()).toBe(before + 1);
    }
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('refuses an aborted call even when its answer is kept', async () => {
    const { client } = cachedClient();
    await client.subjects.list();
    await expect(client.subjects.list({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RequestAbortedError,
    );
  });

  it('refuses a call aborted while it reads the store, though the answer it reads is kept', async () => {
    const reads = holdingStore();
    const { client, sent } = cachedClient({ cache: { store: reads.store } });
    await client.subjects.list();
    reads.hold();
    const controller = new AbortController();
    const call = client.subjects.list({ signal: controller.signal });
    await vi.waitFor(() => expect(reads.held()).toBe(true));
    controller.abort();
    // The read answers right after the abort, with the kept answer.
    reads.release();
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    expect(sent()).toBe(1);
  });

  it('an abort ends a call whose store read never answers at once, not after the store timeout', async () => {
    const reads = holdingStore();
    const { client, sent } = cachedClient({ cache: { store: reads.store } });
    // A first call loads the cache's modules, which fake timers would not wait for.
    await client.journals.get(4);
    reads.hold();
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const settled = vi.fn();
      client.journals.get(5, { signal: controller.signal }).then(settled, settled);
      await vi.advanceTimersByTimeAsync(10);
      expect(settled).not.toHaveBeenCalled();
      controller.abort();
      // No timer moves: the store's one-second bound is not what ends the call.
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toHaveBeenCalledOnce();
      expect(settled.mock.calls[0]![0]).toBeInstanceOf(RequestAbortedError);
      expect(sent()).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asResponse bypasses the cache', async () => {
    const { client, sent } = cachedClient();
    await client.subjects.list();
    const response = await client.subjects.list().asResponse();
    expect(sent()).toBe(2);
    expect(response.headers.get('age')).toBeNull();
    await response.body?.cancel();
  });

  it('a withOptions child on the same key shares the parent cache', async () => {
    const { client, sent } = cachedClient();
    await client.subjects.list();
    const child = client.withOptions({ timeout: 5_000 });
    expect(child.cache).toBe(client.cache);
    expect((await child.subjects.list().withResponse()).cacheStatus).toBe('hit');
    expect(sent()).toBe(1);
    // `cache: undefined` is no cache option of its own: the parent's is shared all the same.
    expect(client.withOptions({ cache: undefined }).cache).toBe(client.cache);
    expect(client.withOptions({ cache: false }).cache).toBeUndefined();
  });

  it('refuses an invalid per-call cache option, whatever is kept', async () => {
    const { client } = cachedClient();
    await client.subjects.list();
    await expect(client.subjects.list({ cache: 'yes' as never })).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe('the cache option', () => {
  const make = (cache: unknown) => testClient({ cache: cache as never });

  it('names the bad ttl key or value in a ConfigurationError, never quoting the value', () => {
    const refusal = (cache: unknown) => {
      try {
        make(cache);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return [(error as ConfigurationError).option, (error as Error).message];
      }
      throw new Error('not refused');
    };
    expect(refusal({ ttl: { 'journals.gett': 1000 } })).toEqual([
      "cache.ttl['journals.gett']",
      "cache.ttl['journals.gett']: `cache.ttl` keys are method names such as 'journals.get'",
    ]);
    expect(refusal({ ttl: { 'journals.get': -1 } })).toEqual([
      "cache.ttl['journals.get']",
      "`cache.ttl['journals.get']` must be an integer from 0 to 9007199254740991",
    ]);
    expect(refusal({ ttl: { 'journals.get': 1.5 } })[0]).toBe("cache.ttl['journals.get']");
    expect(refusal({ ttl: 5 })[0]).toBe('cache.ttl');
    expect(refusal({ ttl: null })[0]).toBe('cache.ttl');
    expect(refusal({ staleIfError: '1h' })).toEqual([
      'cache.staleIfError',
      '`cache.staleIfError` must be an integer from 0 to 9007199254740991',
    ]);
    expect(refusal('memory')[0]).toBe('cache');
    expect(refusal(1)[0]).toBe('cache');
    expect(refusal([])[0]).toBe('cache');
    expect(make(null).cache).toBeUndefined();
    expect(() => make({ ttl: { 'journals.get': 0, 'subjects.list': 31_536_000_000 } })).not.toThrow();
    expect(refusal({ ttl: { 'subjects.list': Number.MAX_SAFE_INTEGER + 1 } })[0]).toBe(
      "cache.ttl['subjects.list']",
    );
  });

  it('recognises a store by its methods, not its class', () => {
    expect(() => make({ store: {} })).toThrow(/`cache\.store` must be a Keyv/);
    expect(() => make({ store: null })).toThrow(ConfigurationError);
    expect(() => make({ store: { get() {}, set() {}, delete() {} } })).toThrow(
      /`cache\.store` must be a Keyv/,
    );
    expect(make({ store: new Keyv() }).cache).toBeDefined();
    expect(make({ store: { get() {}, set() {}, delete() {}, clear() {} } }).cache).toBeDefined();
    expect(make(false).cache).toBeUndefined();
  });

  it('refuses a store given as the option itself, rather than take its inner store for one', () => {
    expect(() => make(new Keyv())).toThrow(/^`cache` must be true, false or \{ store, ttl, staleIfError \}$/);
    expect(() => make({ get() {}, set() {}, delete() {}, clear() {} })).toThrow(ConfigurationError);
    expect(make({ store: new Keyv() }).cache).toBeDefined();
  });

  it('never keeps a method whose ttl is 0', async () => {
    const { client, sent } = cachedClient({ cache: { ttl: { 'subjects.list': 0 } } });
    await client.subjects.list();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('off');
    expect(sent()).toBe(2);
  });

  it('keeps the default lifetime of a method whose ttl is given as undefined', async () => {
    const { client, sent } = cachedClient({
      cache: { ttl: { 'subjects.list': undefined, 'journals.get': 0 } },
    });
    await client.subjects.list();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
    expect(sent()).toBe(1);
  });
});

describe('one request for identical calls in flight', () => {
  it('shares one request among identical calls made at once', async () => {
    const { api, client, sent } = cachedClient();
    api.faults.next({ delayMs: 20 });
    const answers = await Promise.all([1, 2, 3, 4].map(() => client.journals.get(7).withResponse()));
    expect(sent()).toBe(1);
    expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
    expect(answers.map((a) => a.cacheStatus)).toEqual(['miss', 'miss', 'miss', 'miss']);
    // Each caller has its own copy of the one answer.
    (answers[0]!.data as { name: string }).name = 'changed';
    expect(answers.slice(1).map((a) => a.data.name)).not.toContain('changed');
    expect(new Set(answers.map((a) => a.data)).size).toBe(4);
  });

  it('a caller that joined with a signal gets its copy before the first caller can change the answer', async () => {
    const { api, client, sent } = cachedClient();
    api.faults.next({ delayMs: 20 });
    const first = client.journals.get(7).then((journal) => {
      (journal as { name: string }).name = 'changed';
      return journal;
    });
    const joined = client.journals.get(7, { signal: new AbortController().signal });
    expect((await first).name).toBe('changed');
    expect((await joined).name).not.toBe('changed');
    expect(sent()).toBe(1);
  });

  it('an abort by one caller rejects that caller alone; the others get the answer', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { client, sent } = cachedClient({ fetch: gated.fetch }, api);
    const controller = new AbortController();
    const leaving = client.journals.get(7, { signal: controller.signal });
    const staying = client.journals.get(7);
    const staying2 = client.journals.get(7, { signal: new AbortController().signal });
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(RequestAbortedError);
    gated.release();
    expect((await staying).id).toBe(7);
    expect((await staying2).id).toBe(7);
    expect(sent()).toBe(1);
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
  });

  it('a caller that leaves a shared request is told so without the key its abort reason held', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { client } = cachedClient({ fetch: gated.fetch }, api);
    const controller = new AbortController();
    const leaving = client.journals.get(7, { signal: controller.signal });
    const staying = client.journals.get(7);
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    controller.abort(new Error(`stopped; key ${MOCK_API_KEY}`));
    const error = await leaving.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(inspect(error)).not.toContain(MOCK_API_KEY);
    expect(((error as Error).cause as Error).message).toBe('stopped; key [redacted]');
    gated.release();
    expect((await staying).id).toBe(7);
  });

  it('a caller whose signal aborts while it reads the store leaves no rejection unhandled', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const reads = holdingStore();
    const { client } = cachedClient({ fetch: gated.fetch, cache: { store: reads.store } }, api);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const first = new AbortController();
      const firstCall = client.subjects.list({ signal: first.signal });
      await vi.waitFor(() => expect(gated.started()).toBe(1));
      reads.hold();
      const second = new AbortController();
      const secondCall = client.subjects.list({ signal: second.signal });
      await vi.waitFor(() => expect(reads.held()).toBe(true));
      second.abort();
      reads.release();
      await expect(secondCall).rejects.toBeInstanceOf(RequestAbortedError);
      first.abort();
      await expect(firstCall).rejects.toBeInstanceOf(RequestAbortedError);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('aborts the shared request once every caller has left, and a later call starts a new one', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { client } = cachedClient({ fetch: gated.fetch }, api);
    const a = new AbortController();
    const b = new AbortController();
    const calls = [
      client.journals.get(7, { signal: a.signal }),
      client.journals.get(7, { signal: b.signal }),
    ];
    await vi.waitFor(() => expect(gated.started()).toBe(1));
    a.abort();
    b.abort();
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    await vi.waitFor(() => expect(gated.aborted()).toBe(1));
    const later = client.journals.get(7).withResponse();
    await vi.waitFor(() => expect(gated.started()).toBe(2));
    gated.release();
    expect((await later).cacheStatus).toBe('miss');
  });
});

describe('joined calls with their own maxResponseBytes', () => {
  const MiB = 1024 * 1024;

  /** A fetch over the mock whose journal 7 is a 3 MiB body, handed over only after `release()`. */
  function largeJournalFetch() {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await gated.fetch(input, init);
      const journal = (await response.json()) as { name: string };
      journal.name = 'x'.repeat(3 * MiB);
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify(journal), { status: 200, headers });
    };
    return { api, fetch, release: gated.release, started: gated.started };
  }

  it.each([
    ['the child (1 MiB) first', true],
    ['the parent (4 MiB) first', false],
  ])('each caller gets what its own bound allows, %s', async (_, childFirst) => {
    const { api, fetch, release, started } = largeJournalFetch();
    const { client: parent } = cachedClient({ fetch, maxResponseBytes: 4 * MiB }, api);
    const child = parent.withOptions({ maxResponseBytes: MiB });
    const call = (client: MetricClient) => {
      const answer = client.journals.get(7);
      answer.catch(() => {});
      return answer;
    };
    const [first, second] = childFirst ? [call(child), call(parent)] : [call(parent), call(child)];
    await vi.waitFor(() => expect(started()).toBe(2));
    release();
    const [fromChild, fromParent] = childFirst ? [first, second] : [second, first];
    await expect(fromChild).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect((await fromParent).name).toHaveLength(3 * MiB);
  });

  it('calls with the same bound still share one request', async () => {
    const { api, fetch, release, started } = largeJournalFetch();
    const { client } = cachedClient({ fetch, maxResponseBytes: 4 * MiB }, api);
    const calls = [
      client.journals.get(7),
      client.withOptions({}).journals.get(7, { maxResponseBytes: 4 * MiB }),
    ];
    await vi.waitFor(() => expect(started()).toBe(1));
    release();
    for (const answer of await Promise.all(calls)) expect(answer.name).toHaveLength(3 * MiB);
    expect(started()).toBe(1);
  });
});
