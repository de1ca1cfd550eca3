import { onlineManager, QueryObserver } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, RequestAbortedError } from '../../src/index.js';
import { mockQueries } from './setup.js';

/** A fetch that answers nothing until the request's signal aborts: a request caught in flight. */
function hangingFetch() {
  const requests: Request[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    return new Promise<Response>((_, reject) => {
      const { signal } = request;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { fetch, requests };
}

describe('scholarly-metrics/query: cancellation and network mode', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('cancelQueries aborts the request: the SDK rejects with RequestAbortedError, nothing more is sent', async () => {
    const hanging = hangingFetch();
    const { client, queries, queryClient } = mockQueries({ client: { fetch: hanging.fetch } });
    const calls: Array<Promise<unknown>> = [];
    const get = client.journals.get.bind(client.journals);
    vi.spyOn(client.journals, 'get').mockImplementation((...args) => {
      const call = get(...args);
      calls.push(Promise.resolve(call).catch((error: unknown) => error));
      return call;
    });
    const options = queries.journals.get(1);
    const observer = new QueryObserver(queryClient, options);
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(hanging.requests).toHaveLength(1), { timeout: 10_000 });
    await queryClient.cancelQueries({ queryKey: queries.key });
    expect(await calls[0]).toBeInstanceOf(RequestAbortedError);
    expect(hanging.requests[0]!.signal.aborted).toBe(true);
    expect(observer.getCurrentResult().fetchStatus).toBe('idle');
    stop();
    expect(hanging.requests).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it('runs offline (networkMode: always), so the SDK’s ConnectionError shows instead of a paused query', async () => {
    const refused = () => Promise.reject(new TypeError('fetch failed'));
    const { queries, queryClient } = mockQueries({ client: { fetch: refused, maxRetries: 0 } });
    onlineManager.setOnline(false);
    await expect(queryClient.fetchQuery(queries.subjects.list())).rejects.toBeInstanceOf(ConnectionError);
    // TanStack's own default would have paused it, the request never sent.
    const paused = new QueryObserver(queryClient, { ...queries.countries.list(), networkMode: 'online' });
    const stop = paused.subscribe(() => {});
    expect(paused.getCurrentResult().fetchStatus).toBe('paused');
    stop();
  });
});
