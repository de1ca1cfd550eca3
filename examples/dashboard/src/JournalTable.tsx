import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Journal } from 'scholarly-metrics';
import { ErrorBanner } from './ErrorBanner.tsx';
import { queries } from './metrics.ts';

type Column = 'name' | 'quartile' | 'metric_score' | 'total_papers' | 'total_cites';
const columns: { key: Column; label: string; numeric: boolean }[] = [
  { key: 'name', label: 'Journal', numeric: false },
  { key: 'quartile', label: 'Quartile', numeric: false },
  { key: 'metric_score', label: 'Score', numeric: true },
  { key: 'total_papers', label: 'Papers', numeric: true },
  { key: 'total_cites', label: 'Citations', numeric: true },
];

interface Sort {
  column: Column;
  descending: boolean;
}

function sorted(journals: readonly Journal[], { column, descending }: Sort): Journal[] {
  const direction = descending ? -1 : 1;
  return [...journals].sort((a, b) => {
    const x = a[column];
    const y = b[column];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return order * direction || a.id - b.id;
  });
}

export function JournalTable(props: { selected: number | undefined; onSelect: (id: number) => void }) {
  const { data, error, isPending, refetch } = useQuery(queries.journals.list());
  const [sort, setSort] = useState<Sort>({ column: 'metric_score', descending: true });
  const rows = useMemo(() => (data ? sorted(data, sort) : []), [data, sort]);
  // A click on the sorted column turns it around; on another, numbers start with the largest.
  const sortBy = (column: Column, numeric: boolean) =>
    setSort((now) => ({ column, descending: now.column === column ? !now.descending : numeric }));

  return (
    <section className="journals">
      <h2>Journals</h2>
      <ErrorBanner error={error} onRetry={() => void refetch()} />
      {isPending && !error && <p className="muted">Loading journals…</p>}
      <div className="scroll">
        <table>
          <thead>
            <tr>
              {columns.map(({ key, label, numeric }) => (
                <th
                  key={key}
                  className={numeric ? 'num' : undefined}
                  aria-sort={sort.column === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button type="button" onClick={() => sortBy(key, numeric)}>
                    {label}
                    {sort.column === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((journal) => (
              <tr
                key={journal.id}
                data-journal-id={journal.id}
                className={journal.id === props.selected ? 'selected' : undefined}
                onClick={() => props.onSelect(journal.id)}
              >
                <td>{journal.name}</td>
                <td>{journal.quartile}</td>
                <td className="num score">{journal.metric_score}</td>
                <td className="num">{journal.total_papers.toLocaleString('en')}</td>
                <td className="num">{journal.total_cites.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
