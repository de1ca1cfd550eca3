import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/errors.js';
import { get, ok, smallApi } from './helpers.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

// A real receiver on loopback: the event crosses a socket exactly as it would from the service.
const received: Received[] = [];
let receiverStatus = 204;
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(receiverStatus).end();
  });
});
let receiverUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const now = () => Date.parse('2025-03-01T12:34:56.789Z');

describe('updateScore and the score_updated webhook (API §6)', () => {
  it('POSTs the event as JSON to every subscribed URL and reports each delivery', async () => {
    received.length = 0;
    receiverStatus = 204;
    const api = smallApi({ now, webhooks: { urls: [receiverUrl] } });
    const old = api.dataset.journal(5)!.metric_score;
    const newScore = old === 90 ? 91 : 90;
    const { event, deliveries } = await api.updateScore(5, newScore);
    expect(event).toEqual({
      event: 'score_updated',
      journal_id: 5,
      old_score: old,
      new_score: newScore,
      quartile: 'Q1',
      timestamp: '2025-03-01T12:34:56Z',
    });
    expect(deliveries).toEqual([{ url: receiverUrl, ok: true, status: 204 }]);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual(event);
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('updates the list, the profile and the score history (newest first)', async () => {
    const api = smallApi({ now });
    await api.updateScore(5, 10);
    expect((await ok<{ metric_score: number }[]>(api, '/journals'))[4]!.metric_score).toBe(10);
    expect(await ok(api, '/journals/5')).toMatchObject({ metric_score: 10, quartile: 'Q4' });
    const score = await ok<{ current: number; history: { date: string; score: number }[] }>(
      api,
      '/journals/5/score',
    );
    expect(score.current).toBe(10);
    expect(score.history[0]).toEqual({ date: '2025-03-01', score: 10 });
    expect(score.history[1]!.date < '2025-03-01').toBe(true);
    await api.updateScore(5, 50); // same day: the day's entry is replaced, not repeated
    const again = await ok<{ history: { date: string; score: number }[] }>(api, '/journals/5/score');
    expect(again.history[0]).toEqual({ date: '2025-03-01', score: 50 });
    expect(again.history).toHaveLength(score.history.length);
  });

  it('records a failed delivery instead of throwing, and does not retry', async () => {
    received.length = 0;
    receiverStatus = 500;
    const api = smallApi({ now, webhooks: { urls: [receiverUrl, 'http://127.0.0.1:1/closed'] } });
    const { deliveries } = await api.updateScore(5, api.dataset.journal(5)!.metric_score + 1);
    expect(deliveries[0]).toEqual({ url: receiverUrl, ok: false, status: 500 });
    expect(deliveries[1]).toMatchObject({
      url: 'http://127.0.0.1:1/closed',
      ok: false,
      error: expect.any(String),
    });
    expect(received).toHaveLength(1);
  });

  it('follows no redirect: a receiver that answers 301 or 302 did not take the event (API §6: a POST)', async () => {
    received.length = 0;
    const redirecting = createServer((req, res) => {
      received.push({ headers: req.headers, body: `${req.method} ${req.url}` });
      req.resume();
      if (req.url === '/hooks') res.writeHead(301, { location: '/hooks/' }).end();
      else res.writeHead(200).end('a page');
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`;
      const api = smallApi({ now, webhooks: { urls: [url] } });
      const { deliveries } = await api.updateScore(5, api.dataset.journal(5)!.metric_score + 1);
      expect(deliveries).toEqual([{ url, ok: false, status: 301 }]);
      expect(received.map((r) => r.body)).toEqual(['POST /hooks']);
      // Where a redirect comes back opaque (a browser's fetch), the delivery says so.
      const opaque = Object.defineProperty(new Response(null), 'type', { value: 'opaqueredirect' });
      const inBrowser = smallApi({ now, webhooks: { urls: [url], fetch: async () => opaque } });
      const second = await inBrowser.updateScore(5, inBrowser.dataset.journal(5)!.metric_score + 1);
      expect(second.deliveries).toEqual([
        { url, ok: false, error: 'answered with a redirect, which the mock does not follow' },
      ]);
    } finally {
      redirecting.closeAllConnections();
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });

  it('subscribes and unsubscribes at run time; a custom fetch delivers in-process', async () => {
    const requests: Request[] = [];
    const api = smallApi({
      now,
      webhooks: {
        fetch: async (input, init) => {
          requests.push(new Request(input, init));
          return new Response(null, { status: 200 });
        },
      },
    });
    const unsubscribe = api.webhooks.subscribe('https://example.test/a');
    api.webhooks.subscribe('https://example.test/b');
    expect(api.webhooks.urls).toEqual(['https://example.test/a', 'https://example.test/b']);
    unsubscribe();
    await api.updateScore(1, api.dataset.journal(1)!.metric_score + 2);
    expect(requests.map((r) => [r.method, r.url])).toEqual([['POST', 'https://example.test/b']]);
    expect(await requests[0]!.json()).toMatchObject({ event: 'score_updated', journal_id: 1 });
    expect(() => api.webhooks.subscribe('ftp://nope')).toThrow(ConfigurationError);
  });

  it('takes a URL given twice as one subscriber: one delivery, gone with one unsubscribe', async () => {
    const requests: Request[] = [];
    const url = 'https://example.test/hooks';
    const api = smallApi({
      now,
      webhooks: {
        urls: [url, url],
        fetch: async (input, init) => {
          requests.push(new Request(input, init));
          return new Response(null, { status: 200 });
        },
      },
    });
    expect(api.webhooks.urls).toEqual([url]);
    await api.updateScore(1, api.dataset.journal(1)!.metric_score + 2);
    expect(requests).toHaveLength(1);
    api.webhooks.unsubscribe(url);
    await api.updateScore(1, api.dataset.journal(1)!.metric_score + 2);
    expect(requests).toHaveLength(1);
  });

  it('gives up on a receiver at timeoutMs even when its fetch ignores the signal', async () => {
    const api = smallApi({
      now,
      // An in-process handler that never answers and never reads the request's signal.
      webhooks: { urls: ['https://example.test/hooks'], timeoutMs: 20, fetch: () => new Promise(() => {}) },
    });
    const { deliveries } = await api.updateScore(3, api.dataset.journal(3)!.metric_score + 1);
    expect(deliveries).toEqual([
      { url: 'https://example.test/hooks', ok: false, error: 'no answer within 20 ms' },
    ]);
  });

  it('settles when an answer came but its body cannot be cancelled (a cancel that never settles)', async () => {
    const stuck = new ReadableStream({ cancel: () => new Promise<void>(() => {}) });
    const api = smallApi({
      now,
      webhooks: {
        urls: ['https://example.test/hooks'],
        timeoutMs: 20,
        fetch: async () => new Response(stuck),
      },
    });
    const { deliveries } = await api.updateScore(3, api.dataset.journal(3)!.metric_score + 1);
    expect(deliveries).toEqual([{ url: 'https://example.test/hooks', ok: true, status: 200 }]);
  });

  it('refuses a webhook URL with a user or password, whose every delivery would fail', () => {
    const api = smallApi();
    expect(() => api.webhooks.subscribe('https://user:secret@example.test/hooks')).toThrow(
      'Webhook URL must be an absolute http(s) URL, without a user or password',
    );
    expect(() => smallApi({ webhooks: { urls: ['https://user@example.test/hooks'] } })).toThrow(
      ConfigurationError,
    );
  });

  it('rejects an unknown journal, a bad score and an unchanged score', async () => {
    const api = smallApi();
    // An id that is no integer is the call's mistake, not a journal the mock lacks.
    await expect(api.updateScore('7' as unknown as number, 5)).rejects.toThrow(TypeError);
    await expect(api.updateScore(7.5, 5)).rejects.toThrow('journalId must be an integer, got 7.5');
    await expect(api.updateScore(999_999, 5)).rejects.toThrow(/No journal/);
    await expect(api.updateScore(1, -1)).rejects.toThrow(RangeError);
    await expect(api.updateScore(1, 2.5)).rejects.toThrow(RangeError);
    await expect(api.updateScore(1, api.dataset.journal(1)!.metric_score)).rejects.toThrow(
      /only on a change/,
    );
  });

  it('keeps the score history newest first: a clock before its latest entry is refused', async () => {
    const api = smallApi({ now: () => Date.parse('2024-06-01T12:00:00Z') });
    const before = api.dataset.journal(1)!;
    await expect(api.updateScore(1, before.metric_score + 2)).rejects.toThrow(
      /2024-06-01 is before journal 1's latest score entry \(2024-12-31\)/,
    );
    expect(api.dataset.journal(1)).toBe(before);
  });

  it('reset() restores the original scores and subscriptions', async () => {
    const api = smallApi({
      webhooks: { urls: ['https://example.test/x'], fetch: async () => new Response() },
    });
    const original = api.dataset.journal(2)!.metric_score;
    api.webhooks.unsubscribe('https://example.test/x');
    await api.updateScore(2, original + 3);
    api.reset();
    expect(api.dataset.journal(2)!.metric_score).toBe(original);
    expect((await get(api, '/journals/2')).body).toMatchObject({ metric_score: original });
    expect(api.webhooks.urls).toEqual(['https://example.test/x']);
  });
});
