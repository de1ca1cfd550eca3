// scholarly-metrics/query with @tanstack/query-core's QueryClient alone (Vue, Solid, Svelte and
// Angular Query wrap the same client); no top-level await (CommonJS too).
import { QueryClient } from '@tanstack/query-core';
import type { AuthorProfile, JournalPaper, MetricClient, Subject } from 'scholarly-metrics';
import { type MetricQueryDefaults, metricQueries } from 'scholarly-metrics/query';

export async function withQueryCore(client: MetricClient): Promise<void> {
  const defaults: MetricQueryDefaults = { retry: 1, networkMode: 'offlineFirst', key: ['metrics', 'eu'] };
  const queries = metricQueries(client, defaults);
  const queryClient = new QueryClient();
  const author: AuthorProfile = await queryClient.fetchQuery(queries.authors.get(7));
  const subjects: Subject[] = await queryClient.ensureQueryData(queries.subjects.list());
  await queryClient.prefetchQuery(queries.countries.list({ show: 'all' }));
  const papers = await queryClient.fetchInfiniteQuery({ ...queries.journals.papers(42), pages: 3 });
  const first: JournalPaper | undefined = papers.pages[0]?.data[0];
  const next: number | undefined = papers.pages.at(-1)?.nextPage;
  console.log(author.name, subjects.length, first?.title, next);
}
