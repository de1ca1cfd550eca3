import { type HttpHandler, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ClientOptions } from '../../src/core/options.js';
import { MetricClient } from '../../src/index.js';

export const BASE = 'https://api.example.test/api/v1';
export const KEY = 'sk_test_7f3a9c1e5b2d4086';

/** An msw server for one test file: every request must be handled, none may reach the network. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function client(options: ClientOptions = {}) {
  return new MetricClient({ apiKey: KEY, baseUrl: BASE, ...options });
}

/** A handler answering `GET {BASE}{path}` with each of `replies` in turn (the last repeats), counting calls. */
export function sequence(path: string, replies: Array<() => Response | Promise<Response>>) {
  const seen: Request[] = [];
  const handler: HttpHandler = http.get(`${BASE}${path}`, ({ request }) => {
    seen.push(request);
    const reply = replies[Math.min(seen.length - 1, replies.length - 1)]!;
    return reply();
  });
  return { handler, seen };
}

export const json = (body: unknown, init?: ResponseInit) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init?.headers as Record<string, string>) },
  });

export const journalProfile = {
  id: 42,
  name: 'Journal of Tests',
  metric_score: 87,
  quartile: 'Q1',
  description: 'A journal.',
  oa: true,
};
