import { describe, expect, it, vi } from 'vitest';
import { type ScoreUpdatedEvent, WebhookPayloadError } from '../../src/index.js';
import type { InvalidatingClient, MetricQueryOptions } from '../../src/query/index.js';
import { mockQueries, pathsSince, watch } from './setup.js';

const event = (journalId: number): ScoreUpdatedEvent => ({
  event: 'score_updated',
  journal_id: journalId,
  old_score: 10,
  new_score: 11,
  quartile: 'Q2',
  timestamp: '2026-11-26T10:00:00Z',
});

describe('scholarly-metrics/query: invalidation', () => {
  it('invalidate(event) refetches exactly that journal’s profile, its score history and the list', async () => {
    const { api, queries, queryClient } = mockQueries();
    const unwatch = await watch(queryClient, [
      queries.journals.get(1),
      queries.journals.get(12),
      queries.journals.score(1),
      queries.journals.score(12),
      queries.journals.list(),
      queries.subjects.list(),
    ]);
    const from = api.requests.length;
    await queries.invalidate(queryClient, event(1));
    expect(pathsSince(api, from).sort()).toEqual([
      '/api/v1/journals',
      '/api/v1/journals/1',
      '/api/v1/journals/1/score',
    ]);
    unwatch();
  });

  it('a burst of events refetches a list in turn, once more after the last, not once per event', async () => {
    const { api, queries, queryClient } = mockQueries();
    const unwatch = await watch(queryClient, [queries.journals.list(), queries.journals.get(3)]);
    const from = api.requests.length;
    // Ten journals' scores change at once: each event would abort the list's refetch and send another.
    await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => queries.invalidate(queryClient, event(id))),
    );
    // The first refetch, then one for every event that came while it ran; none abandoned.
    expect(pathsSince(api, from).sort()).toEqual([
      '/api/v1/journals',
      '/api/v1/journals',
      '/api/v1/journals/3',
    ]);
    expect(api.requests.slice(from).every((request) => request.status === 200)).toBe(true);
    // An event after the burst settled refetches at once, as the first did.
    const after = api.requests.length;
    await queries.invalidate(queryClient, event(4));
    expect(pathsSince(api, after)).toEqual(['/api/v1/journals']);
    unwatch();
  });

  it('an invalidation that throws at once fails its own event, and the next event invalidates afresh', async () => {
    const { queries } = mockQueries();
    const invalidated: unknown[] = [];
    let throwing = true;
    const wrapper = {
      invalidateQueries: (filters?: { queryKey?: readonly unknown[] }) => {
        if (throwing) throw new Error('a cache listener threw');
        const key = filters?.queryKey ?? [];
        invalidated.push(key[key.length - 1]);
        // A wrapper may give back nothing: there is nothing to wait for.
        return undefined as unknown as Promise<void>;
      },
    } as InvalidatingClient;
    const [first, second] = [1, 2].map((id) => queries.invalidate(wrapper, event(id)).catch((e: Error) => e));
    expect(await first).toBeInstanceOf(Error);
    await second;
    throwing = false;
    await queries.invalidate(wrapper, event(3));
    expect(invalidated).toContain('journals.list');
    expect(invalidated).toContain(3);
  });

  it('invalidate(event) marks unobserved queries stale too, and nothing of another client', async () => {
    const a = mockQueries();
    const b = mockQueries({ api: { baseUrl: 'http://other.test/api/v1' } });
    const { queryClient } = a;
    await queryClient.fetchQuery(a.queries.journals.get(1));
    await queryClient.fetchQuery(b.queries.journals.get(1));
    await a.queries.invalidate(queryClient, event(1));
    expect(queryClient.getQueryState(a.queries.journals.get(1).queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(b.queries.journals.get(1).queryKey)?.isInvalidated).toBe(false);
  });

  it('keys invalidate by prefix: a client’s key, a method, one journal', async () => {
    const a = mockQueries();
    const b = mockQueries({ api: { baseUrl: 'http://other.test/api/v1' } });
    expect(a.queries.key).not.toEqual(b.queries.key);
    const { queryClient } = a;
    const state = (options: { queryKey: readonly unknown[] }) =>
      queryClient.getQueryState(options.queryKey)?.isInvalidated;
    const all: MetricQueryOptions<unknown>[] = [
      a.queries.journals.get(1),
      a.queries.journals.get(2),
      a.queries.papers.search.page({ q: 'coral' }),
      b.queries.journals.get(1),
    ];
    for (const options of all) await queryClient.fetchQuery(options);
    await queryClient.fetchInfiniteQuery(a.queries.papers.search({ q: 'coral' }));
    await queryClient.invalidateQueries({
      queryKey: [...a.queries.key, 'journals.get', 2],
      refetchType: 'none',
    });
    expect(all.map(state)).toEqual([false, true, false, false]);
    await queryClient.invalidateQueries({
      queryKey: [...a.queries.key, 'papers.search'],
      refetchType: 'none',
    });
    expect(state(a.queries.papers.search({ q: 'coral' }))).toBe(true);
    await queryClient.invalidateQueries({ queryKey: a.queries.key, refetchType: 'none' });
    expect(all.map(state)).toEqual([true, true, true, false]);
  });

  it('ignores what is not a score_updated event', async () => {
    const { api, queries, queryClient } = mockQueries();
    const unwatch = await watch(queryClient, [queries.journals.list()]);
    const from = api.requests.length;
    await queries.invalidate(queryClient, { event: 'something_else' } as never);
    expect(pathsSince(api, from)).toEqual([]);
    unwatch();
  });

  it.each([
    ['a journal id given as text', { journal_id: '1' }],
    ['no journal id', { journal_id: undefined }],
    ['a journal id past 2^53', { journal_id: 2 ** 53 }],
  ])(
    'rejects a score_updated event whose journal id is no integer, as cache.apply does: %s',
    async (_what, change) => {
      const { api, queries, queryClient } = mockQueries();
      const unwatch = await watch(queryClient, [queries.journals.list(), queries.journals.get(1)]);
      const from = api.requests.length;
      const refused = await queries
        .invalidate(queryClient, { ...event(1), ...change } as never)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(WebhookPayloadError);
      // Nothing invalidated, the list included.
      expect(pathsSince(api, from)).toEqual([]);
      unwatch();
    },
  );

  it('follow() refetches every query of the client when the relay says events were missed', async () => {
    const { api, queries, queryClient } = mockQueries();
    const listeners = new Map<string, (event: { data?: unknown }) => void>();
    vi.stubGlobal(
      'EventSource',
      class {
        readyState = 1;
        addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
          listeners.set(type, listener);
        }
        close() {}
      },
    );
    try {
      const unwatch = await watch(queryClient, [
        queries.journals.get(1),
        queries.subjects.list(),
        queries.countries.list(),
      ]);
      const from = api.requests.length;
      const stop = queries.follow(queryClient, '/events');
      listeners.get('missed')?.({ data: 'events sent while you were away are no longer kept' });
      await vi.waitFor(() => expect(pathsSince(api, from)).toHaveLength(3));
      expect(pathsSince(api, from).sort()).toEqual([
        '/api/v1/countries',
        '/api/v1/journals/1',
        '/api/v1/subjects',
      ]);
      stop();
      unwatch();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follow() opens the stream with options.eventSource where the runtime has no EventSource', async () => {
    const { api, queries, queryClient } = mockQueries();
    vi.stubGlobal('EventSource', undefined);
    const opened: string[] = [];
    const listeners = new Map<string, (event: { data?: unknown }) => void>();
    const eventSource = (url: string) => {
      opened.push(url);
      return {
        readyState: 1,
        addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
          listeners.set(type, listener);
        },
        close() {},
      };
    };
    try {
      expect(() => queries.follow(queryClient, '/events')).toThrow(
        expect.objectContaining({ name: 'ConfigurationError', option: 'eventSource' }),
      );
      const unwatch = await watch(queryClient, [queries.journals.get(1), queries.subjects.list()]);
      const from = api.requests.length;
      const stop = queries.follow(queryClient, '/events', { eventSource });
      expect(opened).toEqual(['/events']);
      // Its own `missed` is kept when the options give none.
      listeners.get('missed')?.({ data: 'events sent while you were away are no longer kept' });
      await vi.waitFor(() => expect(pathsSince(api, from)).toHaveLength(2));
      stop();
      unwatch();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follow() keeps its own `missed` when the options give it as undefined', async () => {
    const { api, queries, queryClient } = mockQueries();
    const listeners = new Map<string, (event: { data?: unknown }) => void>();
    const eventSource = () => ({
      readyState: 1,
      addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
        listeners.set(type, listener);
      },
      close() {},
    });
    const unwatch = await watch(queryClient, [queries.journals.get(1), queries.subjects.list()]);
    const from = api.requests.length;
    const stop = queries.follow(queryClient, '/events', { eventSource, missed: undefined });
    listeners.get('missed')?.({ data: 'events sent while you were away are no longer kept' });
    await vi.waitFor(() => expect(pathsSince(api, from)).toHaveLength(2));
    stop();
    unwatch();
  });

  it('invalidate() rejects what is not a QueryClient with a ConfigurationError, whatever the event', async () => {
    const { queries } = mockQueries();
    for (const wrong of [undefined, null, {}, { invalidateQueries: 'no' }]) {
      for (const given of [event(1), { event: 'something_else' }]) {
        await expect(queries.invalidate(wrong as never, given as never)).rejects.toThrow(
          expect.objectContaining({ name: 'ConfigurationError', option: 'queryClient' }),
        );
      }
    }
  });

  it('follow() refuses what is not a QueryClient, and an option it does not take, before any event is swallowed', () => {
    const { queries, queryClient } = mockQueries();
    const opened: string[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        readyState = 0;
        constructor(url: string) {
          opened.push(url);
        }
        addEventListener() {}
        close() {}
      },
    );
    try {
      for (const wrong of [undefined, null, {}, { invalidateQueries: 'no' }]) {
        expect(() => queries.follow(wrong as never, '/events')).toThrow(
          expect.objectContaining({ name: 'ConfigurationError', option: 'queryClient' }),
        );
      }
      // A misspelt option was ignored: `onMissed` never called, the default invalidating everything instead.
      for (const [options, option] of [
        [{ onMissed: () => {} }, 'onMissed'],
        [{ reconectMs: 50 }, 'reconectMs'],
        ['slow', 'options'],
        [null, 'options'],
      ] as const) {
        expect(() => queries.follow(queryClient, '/events', options as never)).toThrow(
          expect.objectContaining({ name: 'ConfigurationError', option }),
        );
      }
      expect(opened).toEqual([]);
      queries.follow(queryClient, '/events')();
      queries.follow(queryClient, '/events', { reconnectMs: 50, missed: undefined })();
      expect(opened).toEqual(['/events', '/events']);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
