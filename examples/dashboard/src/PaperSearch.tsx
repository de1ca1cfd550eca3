import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorBanner } from './ErrorBanner.tsx';
import { queries } from './metrics.ts';

/** Paper search; the next page loads when the end of the list scrolls into view. */
export function PaperSearch() {
  const [q, setQ] = useState('climate');
  const search = useInfiniteQuery(queries.papers.search({ q, sort: '-citations', per_page: 20 }));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = search;
  const list = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const target = sentinel.current;
    if (target === null || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { root: list.current, rootMargin: '120px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(String(new FormData(event.currentTarget).get('q') ?? ''));
  };
  const papers = search.data?.pages.flatMap((page) => page.data) ?? [];
  const total = search.data?.pages[0]?.total;

  return (
    <section className="papers">
      <h2>Papers</h2>
      <form onSubmit={submit}>
        <input name="q" defaultValue={q} aria-label="Search papers" />
        <button type="submit">Search</button>
        {total !== undefined && (
          <span className="muted" data-testid="paper-count">
            {' '}
            {papers.length} of {total.toLocaleString('en')}, most cited first
          </span>
        )}
      </form>
      <ErrorBanner error={search.error} onRetry={() => void search.refetch()} />
      <div className="scroll" ref={list} data-testid="paper-list">
        <ol>
          {papers.map((paper, i) => (
            <li key={paper.id ?? `at-${i}`} className="paper">
              <strong>{paper.title ?? 'Untitled'}</strong>{' '}
              <span className="muted">
                {paper.year} · {paper.citations ?? 0} citations
              </span>
            </li>
          ))}
        </ol>
        <div ref={sentinel} className="muted sentinel">
          {isFetchingNextPage
            ? 'Loading more…'
            : hasNextPage
              ? ''
              : total !== undefined
                ? 'End of results.'
                : ''}
        </div>
      </div>
    </section>
  );
}
