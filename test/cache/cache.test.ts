import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError, RequestAbortedError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { recordingLogger } from '../support.js';
import { cachedClient, holdingStore } from './helpers.js';

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

  it("a request in flight before a 'refresh' lands after it without replacing the refreshed answer", async () => {
    const api = createMockApi();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    // The first request's answer is made at once (the old score) and handed over only on release().
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await api.fetch(input, init);
      if (++calls === 1) await held;
      return response;
    };
    const { client } = cachedClient({ fetch }, api);
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(calls).toBe(1));
    const before = (await client.journals.get(7, { cache: false })).metric_score;
    await api.updateScore(7, before === 50 ? 51 : 50);
    const fresh = await client.journals.get(7, { cache: 'refresh' });
    release();
    expect((await early).metric_score).toBe(before);
    const after = await client.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['hit', fresh.metric_score]);
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
