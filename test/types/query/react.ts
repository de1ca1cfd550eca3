// scholarly-metrics/query in React components, under strict settings: each hook's data is typed by
// the options alone, with no type argument written.
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  useSuspenseQueries,
} from '@tanstack/react-query';
import {
  type Journal,
  type JournalProfile,
  MetricClient,
  type MetricError,
  type PaperSummary,
  type PlainPage,
  type ScoreUpdatedEvent,
} from 'scholarly-metrics';
import { metricQueries } from 'scholarly-metrics/query';

/** true when A and B are the same type, else a compile error where it is assigned. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const client = new MetricClient({ apiKey: null, baseUrl: 'https://example.org/api/v1' });
const queries = metricQueries(client, { staleTime: 30_000 });

export function useJournal(id: number): JournalProfile | undefined {
  const { data } = useQuery(queries.journals.get(id));
  const exact: Equal<typeof data, JournalProfile | undefined> = true;
  console.log(exact);
  return data;
}

export function useJournals(): Journal[] | undefined {
  const { data } = useQuery({ ...queries.journals.list(), refetchInterval: 60_000 });
  const exact: Equal<typeof data, Journal[] | undefined> = true;
  console.log(exact);
  return data;
}

export function useSearch(q: string) {
  const { data, fetchNextPage, hasNextPage } = useInfiniteQuery(queries.papers.search({ q, per_page: 20 }));
  // useInfiniteQuery leaves the page params `unknown` in `data`; the pages are typed.
  const exact: Equal<typeof data, InfiniteData<PlainPage<PaperSummary>> | undefined> = true;
  const page = useQuery(queries.papers.search.page({ q, page: 3 })).data;
  const exactPage: Equal<typeof page, PlainPage<PaperSummary> | undefined> = true;
  console.log(exact, exactPage, page?.nextPage, hasNextPage);
  return { papers: data?.pages.flatMap((p) => p.data) ?? [], more: () => fetchNextPage() };
}

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: MetricError;
    // A typed meta, as TanStack documents it: every option the entry makes must still fit the hooks.
    queryMeta: { feature: string };
  }
}

const metaQueries = metricQueries(client, { meta: { feature: 'journals' } });
export function useJournalWithMeta(id: number): JournalProfile | undefined {
  return useQuery(metaQueries.journals.get(id)).data;
}

// The errors are the registered ones whatever the hook; useSuspenseQueries takes a tuple of options.
export function useErrors(): Array<MetricError | null> {
  const { error } = useQuery(queries.journals.get(1));
  const exact: Equal<typeof error, MetricError | null> = true;
  const paged = useInfiniteQuery(queries.papers.search({ q: 'coral' })).error;
  const exactPaged: Equal<typeof paged, MetricError | null> = true;
  const [profile, score] = useSuspenseQueries({
    queries: [queries.journals.get(1), queries.journals.score(1)],
  });
  const exactProfile: Equal<typeof profile.data, JournalProfile> = true;
  console.log(exact, exactPaged, exactProfile, score.data.current);
  return [error, paged, profile.error];
}

export function useOnEvent(): (event: ScoreUpdatedEvent) => Promise<void> {
  const queryClient = useQueryClient();
  return (event) => onEvent(queryClient, event);
}

async function onEvent(queryClient: QueryClient, event: ScoreUpdatedEvent): Promise<void> {
  await queries.invalidate(queryClient, event);
  // What `client.cache.apply` takes, it takes: an event's other fields are not read.
  await queries.invalidate(queryClient, { event: 'score_updated', journal_id: 7 });
  // @ts-expect-error: which journal is what it needs
  await queries.invalidate(queryClient, { event: 'score_updated' });
  await queryClient.invalidateQueries({ queryKey: queries.key });
  const cached = queryClient.getQueryData(queries.journals.get(event.journal_id).queryKey);
  const exact: Equal<typeof cached, JournalProfile | undefined> = true;
  console.log(exact);
  const stop: () => void = queries.follow(queryClient, '/events');
  stop();
}

export function refused(): void {
  // @ts-expect-error a journal id is a number
  queries.journals.get('42');
  // @ts-expect-error request options are not the query's: the signal is TanStack's
  queries.journals.get(42, { timeout: 5_000 });
  // @ts-expect-error not a parameter of the paper search
  queries.papers.search({ title: 'coral' });
  // @ts-expect-error subjects.list is not paginated: no .page()
  queries.subjects.list.page();
  // @ts-expect-error getMany is several requests, not an endpoint of the API table
  queries.papers.getMany;
}
