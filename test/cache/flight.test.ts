// Identical calls in flight share one request: each caller its own copy, its own abort, its own bound.
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { type MetricClient, RequestAbortedError, ResponseTooLargeError } from '../../src/index.js';
import { createMockApi, MOCK_API_KEY } from '../../src/testing/index.js';
import { cachedClient, gatedFetch, holdingStore } from './helpers.js';

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
