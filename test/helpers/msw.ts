import { getResponse, HttpHandler, http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

export const BASE = 'https://api.example.test/api/v1';

/** The msw server of the running test file, for {@link currentMswFetch}. */
let current: SetupServer | undefined;

/** An msw server for one test file: every request must be handled, none may reach the network. */
export function useMsw() {
  const server = setupServer();
  current = server;
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/**
 * A `fetch` answered in-process from the msw server's handlers (`getResponse`), with promises alone.
 * A handler's `HttpResponse.error()` is a rejected `TypeError`, as the runtime's network error is.
 */
export function inProcessFetch(server: SetupServer): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const handlers = server
      .listHandlers()
      .filter((handler): handler is HttpHandler => handler instanceof HttpHandler);
    const response = await getResponse(handlers, request);
    if (response === undefined) throw new TypeError(`no handler for ${request.method} ${request.url}`);
    if (response.type === 'error') throw new TypeError('fetch failed');
    return response;
  };
}

/**
 * The fetch of a client of the msw server: on fake timers, requests are answered in-process from the
 * same handlers, since msw's interception of the real `fetch` takes event-loop turns that a fake clock
 * does not wait for, so on a loaded machine a backoff could be scheduled after the clock had already
 * moved. On real timers, `undefined`: the real `fetch`, intercepted.
 */
export function currentMswFetch(): typeof globalThis.fetch | undefined {
  return vi.isFakeTimers() && current ? inProcessFetch(current) : undefined;
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
