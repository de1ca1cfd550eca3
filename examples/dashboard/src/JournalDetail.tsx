import { useQuery } from '@tanstack/react-query';
import { ErrorBanner } from './ErrorBanner.tsx';
import { queries } from './metrics.ts';
import { ScoreChart } from './ScoreChart.tsx';

export function JournalDetail({ id }: { id: number | undefined }) {
  if (id === undefined) {
    return (
      <section className="detail">
        <h2>Score history</h2>
        <p className="muted">Pick a journal in the table.</p>
      </section>
    );
  }
  return <SelectedJournal id={id} />;
}

function SelectedJournal({ id }: { id: number }) {
  const profile = useQuery(queries.journals.get(id));
  const score = useQuery(queries.journals.score(id));
  return (
    <section className="detail" aria-busy={score.isFetching}>
      <h2>{profile.data?.name ?? 'Score history'}</h2>
      <ErrorBanner error={profile.error} onRetry={() => void profile.refetch()} />
      <ErrorBanner error={score.error} onRetry={() => void score.refetch()} />
      {profile.data && (
        <p className="muted">
          {profile.data.quartile} · {profile.data.oa ? 'open access' : 'subscription'} ·{' '}
          {profile.data.description}
        </p>
      )}
      {score.data && <ScoreChart history={score.data.history} current={score.data.current} />}
    </section>
  );
}
