import { describe, expect, it, vi } from 'vitest';
import { type MetricClient, WebhookPayloadError } from '../../src/index.js';
import { createMockApi } from '../../src/testing/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { testClient } from '../support.js';
import { cachedClient, gatedFetch } from './helpers.js';

const paths = (api: { requests: readonly { path: string }[] }) =>
  api.requests.map((r) => r.path.replace('/api/v1', ''));

describe('the mock after updateScore', () => {
  it('shows the new score in the profile, the score history and the journal list', async () => {
    const api = createMockApi({ now: () => Date.parse('2026-02-03T10:00:00Z') });
    const client = testClient({}, api);
    const before = await client.journals.get(7);
    const score = before.metric_score === 91 ? 92 : 91;
    await api.updateScore(7, score);
    expect(await client.journals.get(7)).toMatchObject({ metric_score: score, quartile: 'Q1' });
    const history = await client.journals.score(7);
    expect(history).toMatchObject({ current: score, quartile: 'Q1' });
    expect(history.history[0]).toEqual({ date: '2026-02-03', score });
    expect((await client.journals.list()).find((j) => j.id === 7)).toMatchObject({ metric_score: score });
  });
});

describe('client.cache.apply(event)', () => {
  it("drops the journal's profile, score history and the list, and nothing else", async () => {
    const { api, client } = cachedClient();
    const warm = async () => {
      await client.journals.get(7);
      await client.journals.score(7);
      await client.journals.list();
      await client.journals.papers(7);
      await client.journals.get(8);
      await client.journals.score(8);
      await client.subjects.list();
    };
    await warm();
    const { event } = await api.updateScore(7, 12);
    (api.requests as unknown[]).splice(0);
    await client.cache!.apply(event);
    await warm();
    expect(paths(api)).toEqual(['/journals/7', '/journals/7/score', '/journals']);
    expect((await client.journals.get(7)).metric_score).toBe(12);
    expect((await client.journals.score(7)).current).toBe(12);
    expect((await client.journals.list()).find((j) => j.id === 7)?.metric_score).toBe(12);
  });

  it('refuses anything but a score_updated event', async () => {
    const { client } = cachedClient();
    await expect(client.cache!.apply({ event: 'nope' } as never)).rejects.toBeInstanceOf(WebhookPayloadError);
  });

  it('clear() drops everything', async () => {
    const { client, sent } = cachedClient();
    await client.subjects.list();
    await client.cache!.clear();
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(2);
  });

  it('clear() keeps no answer that was in flight when it was called, whatever the method', async () => {
    const api = createMockApi();
    const gated = gatedFetch(api);
    const { client, sent } = cachedClient({ fetch: gated.fetch }, api);
    const inFlight = Promise.all([client.subjects.list(), client.journals.papers(7), client.journals.get(7)]);
    await vi.waitFor(() => expect(gated.started()).toBe(3));
    await client.cache!.clear();
    gated.release();
    await inFlight;
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect((await client.journals.papers(7).withResponse()).cacheStatus).toBe('miss');
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(6);
  });

  it('an answer in flight when the event is applied is not kept, and later calls do not join it', async () => {
    // The first answer is made at once (the old score) and handed over only when the test says.
    const { api, client, release } = firstHeld();
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    const { event } = await api.updateScore(7, 13);
    await client.cache!.apply(event);
    const late = await client.journals.get(7);
    expect(late.metric_score).toBe(13);
    release();
    expect((await early).metric_score).not.toBe(13);
    // The early answer came back last; it must not be what is kept.
    expect((await client.journals.get(7)).metric_score).toBe(13);
    expect((await client.journals.get(7)).metric_score).toBe(13);
  });

  /** A client over the mock whose first request's answer (made at once) is handed over at `release()`. */
  function firstHeld() {
    const api = createMockApi();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await api.fetch(input, init);
      if (first) {
        first = false;
        await gate;
      }
      return response;
    };
    return { release, ...cachedClient({ fetch }, api) };
  }

  it('reaches a request in flight with every event, not only the first that concerns it', async () => {
    const { api, client, release } = firstHeld();
    // The API has the first change, whose delivery is late: the request in flight shows it.
    const { event: first } = await api.updateScore(7, 21);
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    await client.cache!.apply(first);
    const { event: second } = await api.updateScore(7, 22);
    await client.cache!.apply(second);
    release();
    expect((await early).metric_score).toBe(21);
    // The answer landed after the second event, which it contradicts: it must not be kept.
    const after = await client.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['miss', 22]);
  });

  it('reaches a request in flight that a refresh took the place of, so that its answer is not kept', async () => {
    const { api, client, release } = firstHeld();
    const early = client.journals.get(7);
    await vi.waitFor(() => expect(api.requests).toHaveLength(1));
    const before = (await client.journals.get(7, { cache: 'refresh' })).metric_score;
    const { event } = await api.updateScore(7, before === 31 ? 32 : 31);
    await client.cache!.apply(event);
    release();
    expect((await early).metric_score).toBe(before);
    const after = await client.journals.get(7).withResponse();
    expect([after.cacheStatus, after.data.metric_score]).toEqual(['miss', event.new_score]);
  });
});

describe('a webhook receiver given the cache', () => {
  it("applies the mock's delivery before onEvent; the next call shows the new score", async () => {
    const seen: number[] = [];
    let client!: MetricClient;
    const handler = () =>
      createWebhookHandler(
        async (event) => {
          // The cache has already dropped the journal: this call goes to the API.
          seen.push((await client.journals.get(event.journal_id)).metric_score);
        },
        { cache: client.cache },
      );
    let handle!: ReturnType<typeof createWebhookHandler>;
    const api = createMockApi({
      webhooks: {
        urls: ['https://my-app.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    ({ client } = cachedClient({}, api));
    handle = handler();
    await client.journals.get(7);
    const { deliveries } = await api.updateScore(7, 14);
    expect(deliveries).toEqual([{ url: 'https://my-app.test/hooks', ok: true, status: 200 }]);
    expect(seen).toEqual([14]);
    expect((await client.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect((await client.journals.get(7)).metric_score).toBe(14);
  });

  it('logs a failing apply and still acknowledges the delivery', async () => {
    const errors: unknown[] = [];
    let events = 0;
    const handle = createWebhookHandler(() => void events++, {
      cache: { apply: () => Promise.reject(new Error('redis down')) },
      onError: (error) => void errors.push(error),
    });
    const api = createMockApi({
      webhooks: {
        urls: ['https://my-app.test/hooks'],
        fetch: (input, init) => handle(new Request(input, init)),
      },
    });
    const { deliveries } = await api.updateScore(7, 15);
    expect(deliveries[0]?.status).toBe(200);
    expect(events).toBe(1);
    expect(String(errors[0])).toMatch(/cache\.apply\(event\) failed/);
    expect((errors[0] as Error).cause).toEqual(new Error('redis down'));
  });

  it('refuses a cache without apply at creation', () => {
    expect(() => createWebhookHandler(() => {}, { cache: {} as never })).toThrow(/apply\(event\)/);
  });
});
