// THROWAWAY: stands in for `scholarly-metrics/query` until it lands; deleted once it does.
import type { QueryClient } from '@tanstack/react-query';
import type { MetricClient, PaperSummary, ScoreUpdatedEvent } from 'scholarly-metrics';

type SearchParams = NonNullable<Parameters<MetricClient['papers']['search']>[0]>;
interface Defaults {
  readonly staleTime?: number;
}
export interface PlainPage<T> {
  data: T[];
  total: number;
  page: number;
  nextPage: number | undefined;
}

export function metricQueries(client: MetricClient, defaults: Defaults = {}) {
  const key = ['scholarly-metrics'] as const;
  const base = { retry: false, networkMode: 'always', ...defaults } as const;
  const journals = {
    list: () => ({
      ...base,
      queryKey: [...key, 'journals.list', {}] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => client.journals.list({ signal }),
    }),
    get: (id: number) => ({
      ...base,
      queryKey: [...key, 'journals.get', { id }] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => client.journals.get(id, { signal }),
    }),
    score: (id: number) => ({
      ...base,
      queryKey: [...key, 'journals.score', { id }] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => client.journals.score(id, { signal }),
    }),
  };
  const papers = {
    search: (params: SearchParams) => ({
      ...base,
      queryKey: [...key, 'papers.search', params] as const,
      initialPageParam: 1,
      queryFn: async ({ signal, pageParam }: { signal: AbortSignal; pageParam: number }) => {
        const page = await client.papers.search({ ...params, page: pageParam }, { signal });
        const size = params.per_page ?? 20;
        const nextPage = pageParam * size < page.total && page.data.length > 0 ? pageParam + 1 : undefined;
        return { data: page.data, total: page.total, page: pageParam, nextPage } as PlainPage<PaperSummary>;
      },
      getNextPageParam: (last: PlainPage<PaperSummary>) => last.nextPage,
    }),
  };
  const invalidate = (queryClient: QueryClient, event: ScoreUpdatedEvent) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: journals.list().queryKey }),
      queryClient.invalidateQueries({ queryKey: journals.get(event.journal_id).queryKey }),
      queryClient.invalidateQueries({ queryKey: journals.score(event.journal_id).queryKey }),
    ]);
  const follow = (queryClient: QueryClient, url: string) => {
    const source = new EventSource(url);
    source.addEventListener('message', (message) => {
      void invalidate(queryClient, JSON.parse((message as MessageEvent<string>).data));
    });
    return () => source.close();
  };
  return { key, journals, papers, invalidate, follow };
}
