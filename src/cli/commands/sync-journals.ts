/**
 * `sync DB journals`: the subjects, the countries and the journals list in one transaction, then
 * each journal's profile and score history, a journal per transaction with the run's position, so
 * that a stopped run continues with the next journal and never writes a row twice.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Context } from '../context.js';
import type { Row } from '../output/cells.js';
import { recordKinds } from '../output/record-kinds.js';
import { inTransaction, upserter } from '../output/sqlite.js';
import { advance, type SyncRun } from './sync-store.js';

/** Writes what `run` has left of the journals; `requests` counts this run's requests. */
export async function syncJournals(
  context: Context,
  database: DatabaseSync,
  run: SyncRun,
  requests: () => number,
): Promise<void> {
  const { client, progress, signal } = context;
  const kind = (name: string) => {
    const found = recordKinds[name];
    if (found === undefined) throw new Error(`no record kind ${name}`);
    return found;
  };
  const journal = upserter(database, kind('journals get'));
  const points = upserter(database, kind('journals score'));
  if (run.from.step !== 'journals') {
    const [subjects, countries, journals] = [
      await client.subjects.list({ signal }),
      await client.countries.list({ show: 'all' }, { signal }),
      await client.journals.list({ signal }),
    ];
    const lists: Array<[(record: Row) => void, readonly Row[]]> = [
      [upserter(database, kind('subjects list')), subjects as readonly Row[]],
      [upserter(database, kind('countries list')), countries as readonly Row[]],
      [upserter(database, kind('journals list')), journals as readonly Row[]],
    ];
    inTransaction(database, () => {
      for (const [write, records] of lists) for (const record of records) write(record);
      advance(
        database,
        run,
        { step: 'journals', next: 0 },
        subjects.length + countries.length + journals.length,
        requests(),
      );
    });
  }
  const ids = (database.prepare('SELECT id FROM journals ORDER BY id').all() as Array<{ id: number }>).map(
    (row) => row.id,
  );
  progress.begin('records', run.records);
  for (let at = run.from.step === 'journals' ? (run.from.next ?? 0) : 0; at < ids.length; at += 1) {
    const id = ids[at] as number;
    const profile = (await client.journals.get(id, { signal })) as unknown as Row;
    const score = await client.journals.score(id, { signal });
    const history = score.history.map((point) => ({ journal_id: id, date: point.date, score: point.score }));
    inTransaction(database, () => {
      journal(profile);
      for (const point of history) points(point);
      advance(database, run, { step: 'journals', next: at + 1 }, 1 + history.length, requests());
    });
    progress.update({ done: run.records, total: undefined, requests: context.requests() });
  }
}
