import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { JournalDetail } from './JournalDetail.tsx';
import { JournalTable } from './JournalTable.tsx';
import { queries } from './metrics.ts';
import { PaperSearch } from './PaperSearch.tsx';

export function App() {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number | undefined>();

  // Each score_updated event the server relays refetches that journal's queries and the list:
  // the page stays current without polling and without a reload.
  useEffect(() => queries.follow(queryClient, '/events'), [queryClient]);

  return (
    <main>
      <header>
        <h1>Journal metrics</h1>
        <p className="muted">Live: scores update as the API announces them.</p>
      </header>
      <div className="columns">
        <JournalTable selected={selected} onSelect={setSelected} />
        <JournalDetail id={selected} />
      </div>
      <PaperSearch />
    </main>
  );
}
