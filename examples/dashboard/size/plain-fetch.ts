/**
 * The dashboard's data layer written by hand with `fetch`, for measure.ts only: what the app weighs
 * without the SDK. It has what the page uses (four calls, the error classes, the query options) and
 * none of what the SDK adds: no validation, no retries, no Retry-After, no timeouts.
 */
import type { QueryClient } from '@tanstack/query-core';

export class MetricError extends Error {}
export class ConnectionError extends MetricError {}
export class APIError extends MetricError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
export class AuthenticationError extends APIError {}
export class RateLimitError extends APIError {
  constructor(
    message: string,
    readonly retryAfter: number | undefined,
  ) {
    super(429, message);
  }
}

export class MetricClient {
  readonly baseUrl: string;
  constructor(options: { apiKey: null; baseUrl: string }) {
    this.baseUrl = options.baseUrl;
  }
  async get<T>(path: string, params: object, signal?: AbortSignal): Promise<T> {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const response = await fetch(`${this.baseUrl}${path}?${query}`, { signal }).catch((error: unknown) => {
      throw new ConnectionError(String(error));
    });
    if (response.status === 401) throw new AuthenticationError(401, 'unauthorized');
    if (response.status === 429) {
      const wait = Number(response.headers.get('retry-after'));
      throw new RateLimitError('rate limited', Number.isFinite(wait) ? wait : undefined);
    }
    if (!response.ok) throw new APIError(response.status, `${response.status} ${response.statusText}`);
    return (await response.json()) as T;
  }
}

export function metricQueries(client: MetricClient, defaults: object = {}) {
  const key = ['metrics', client.baseUrl];
  const options = (name: string, path: string, params: object = {}) => ({
    ...defaults,
    queryKey: [...key, name, params],
    queryFn: ({ signal }: { signal: AbortSignal }) => client.get(path, {}, signal),
  });
  const journals = {
    list: () => options('journals.list', '/journals'),
    get: (id: number) => options('journals.get', `/journals/${id}`, { id }),
    score: (id: number) => options('journals.score', `/journals/${id}/score`, { id }),
  };
  const papers = {
    search: (params: { per_page?: number }) => ({
      ...defaults,
      queryKey: [...key, 'papers.search', params],
      initialPageParam: 1,
      queryFn: async ({ signal, pageParam }: { signal: AbortSignal; pageParam: number }) => {
        const body: { data: unknown[]; total: number } = await client.get(
          '/papers',
          { ...params, page: pageParam },
          signal,
        );
        const more = pageParam * (params.per_page ?? 20) < body.total;
        return { ...body, page: pageParam, nextPage: more ? pageParam + 1 : undefined };
      },
      getNextPageParam: (last: { nextPage: number | undefined }) => last.nextPage,
    }),
  };
  const invalidate = (queryClient: QueryClient, event: { journal_id: number }) =>
    Promise.all(
      [journals.list(), journals.get(event.journal_id), journals.score(event.journal_id)].map(
        ({ queryKey }) => queryClient.invalidateQueries({ queryKey }),
      ),
    );
  const follow = (queryClient: QueryClient, url: string) => {
    const source = new EventSource(url);
    source.addEventListener(
      'score_updated',
      (message) => void invalidate(queryClient, JSON.parse(message.data)),
    );
    return () => source.close();
  };
  return { key, journals, papers, invalidate, follow };
}
