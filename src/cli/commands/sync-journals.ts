/**
 * `sync DB journals`: the subjects, the countries and the journals list in one transaction, then
 * each journal's profile and score history, a journal per transaction with the run's position, so
 * that a stopped run continues with the next journal and never writes a row twice. A journal the
 * API no longer has (an older list's, kept in the table) is passed over, its rows left as they are;
 * so is one the API keeps failing, told as a failure.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Context } from '../context.js';
import { concernsOne } from '../errors.js';
import type { Row } from '../output/cells.js';
import { recordKinds } from '../output/record-kinds.js';
import { inTransaction } from '../output/sqlite.js';
import { upserter } from '../output/sqlite-upsert.js';
import { withoutSecrets } from '../secrets.js';
import { advance, type SyncReport, type SyncRun } from './sync-store.js';

const kind = (name: string) => {
  const found = recordKinds[name];
  if (found === undefined) throw new Error(`no record kind ${name}`);
  return found;
};

/** The subjects, the countries and the journals list, in one transaction that moves the run on to the journals. */
async function writeLists(
  context: Context,
  database: DatabaseSync,
  run: SyncRun,
  requests: () => number,
  report: SyncReport,
): Promise<void> {
  const { client, signal } = context;
  const [subjects, countries, journals] = withoutSecrets(
    [
      await client.subjects.list({ signal }),
      await client.countries.list({ show: 'all' }, { signal }),
      await client.journals.list({ signal }),
    ],
    context.io.answerSecrets,
  );
  const lists: Array<[(record: Row) => void, readonly Row[]]> = [
    [upserter(database, kind('subjects list'), report.unfit), subjects as readonly Row[]],
    [upserter(database, kind('countries list'), report.unfit), countries as readonly Row[]],
    [upserter(database, kind('journals list'), report.unfit), journals as readonly Row[]],
  ];
  inTransaction(database, () => {
    for (const [write, records] of lists) for (const record of records) write(record);
    const written = subjects.length + countries.length + journals.length;
    advance(database, run, { step: 'journals' }, written, requests());
  });
}

/**
 * Whether `error`, met asking for journal `id`, says the API no longer has it: a 404, and the
 * journals list (asked once a run, in `listed`) without it. The list tells a journal gone from a
 * base URL that answers 404 to everything, which fails here with the list's own error.
 */
async function gone(
  context: Context,
  listed: { ids?: Promise<ReadonlySet<number>> },
  id: number,
  error: unknown,
): Promise<boolean> {
  if ((error as Error | undefined)?.name !== 'NotFoundError') return false;
  listed.ids ??= context.client.journals
    .list({ signal: context.signal })
    .then((journals) => new Set(journals.map((journal) => journal.id)));
  return !(await listed.ids).has(id);
}

/** A journal's profile and score history, as its rows; `undefined` for a journal the API no longer has. */
async function fetchJournal(
  context: Context,
  listed: { ids?: Promise<ReadonlySet<number>> },
  id: number,
): Promise<{ profile: Row; history: Row[] } | undefined> {
  const { client, signal } = context;
  try {
    const profile = (await client.journals.get(id, { signal })) as unknown as Row;
    const score = await client.journals.score(id, { signal });
    const history = score.history.map((point) => ({ journal_id: id, date: point.date, score: point.score }));
    return { profile, history };
  } catch (error) {
    if (await gone(context, listed, id, error)) return undefined;
    throw error;
  }
}

/**
 * Writes what `run` has left of the journals; `requests` counts this run's requests. A journal the
 * API keeps failing (see `concernsOne`) is told to `report` and passed over, its rows left as they
 * are: the journals after it are still refreshed. The position keeps it, so that a run continued
 * after a stop asks for it again at its end, as a fresh run asks for every journal.
 */
export async function syncJournals(
  context: Context,
  database: DatabaseSync,
  run: SyncRun,
  requests: () => number,
  report: SyncReport,
): Promise<void> {
  const { progress, signal } = context;
  const journal = upserter(database, kind('journals get'), report.unfit);
  const points = upserter(database, kind('journals score'), report.unfit);
  if (run.from.step !== 'journals') await writeLists(context, database, run, requests, report);
  const ids = (database.prepare('SELECT id FROM journals ORDER BY id').all() as Array<{ id: number }>).map(
    (row) => row.id,
  );
  // Continued past the last journal done, by id: rows another command added or removed meanwhile
  // move no journal in or out of what is left.
  const after = run.from.step === 'journals' ? run.from.after : undefined;
  const rest = after === undefined ? ids : ids.filter((id) => id > after);
  // The journals the stopped run passed over, asked for after the rest (once each).
  const ahead = new Set(rest);
  const carried = (run.from.step === 'journals' ? (run.from.failed ?? []) : []).filter(
    (id) => !ahead.has(id),
  );
  const queue = [...rest, ...carried];
  const failed: number[] = [];
  const listed: { ids?: Promise<ReadonlySet<number>> } = {};
  progress.begin('records', run.records);
  for (const [at, id] of queue.entries()) {
    let fetched: { profile: Row; history: Row[] } | undefined;
    try {
      fetched = withoutSecrets(await fetchJournal(context, listed, id), context.io.answerSecrets);
    } catch (error) {
      if (!concernsOne(error) || signal.aborted) throw error;
      report.failed(`journal ${id}`, error as Error);
      failed.push(id);
    }
    const position = {
      step: 'journals' as const,
      after: rest[Math.min(at, rest.length - 1)] ?? after,
      failed: [...failed, ...queue.slice(Math.max(at + 1, rest.length))],
    };
    inTransaction(database, () => {
      if (fetched !== undefined) journal(fetched.profile);
      for (const point of fetched?.history ?? []) points(point);
      const written = fetched === undefined ? 0 : 1 + fetched.history.length;
      advance(database, run, position, written, requests());
    });
    progress.update({ done: run.records, total: undefined, requests: context.requests() });
  }
}
