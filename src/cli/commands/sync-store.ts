/**
 * What `sync` records in the database it keeps: the queries it keeps current (`sync_queries`) and
 * each run (`sync_runs`: started, finished, records, requests, what stopped it, and where it had got
 * to). A run's position is saved in the transaction that writes its records, so a run stopped at any
 * moment (a daily limit, Ctrl-C, `kill -9`) is continued by the next from exactly where it stopped.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { UnfitValues } from '../output/typed-values.js';

/**
 * Where a sync stands: the papers' next page, or the journals' step and the id of the last journal
 * done (none yet: absent), with those the run passed over as failed (asked for again by a run that
 * continues it).
 */
export interface SyncPosition {
  readonly page?: number;
  readonly step?: 'lists' | 'journals';
  readonly after?: number | undefined;
  readonly failed?: readonly number[];
}

/** A query `sync` keeps current: `journals`, or `papers` with its search. */
export interface SyncQuery {
  readonly id: number;
  readonly what: 'journals' | 'papers';
  readonly params: Readonly<Record<string, string | number | boolean>>;
}

/** A run under way. */
export interface SyncRun {
  readonly id: number;
  readonly query: SyncQuery;
  /** Where to start: the stopped run's position, or nothing for a fresh refresh. */
  readonly from: SyncPosition;
  /** The records the stopped runs it continues wrote: counted in the last word, as a resumed harvest's are. */
  readonly earlier: number;
  records: number;
}

export function ensureSyncTables(database: DatabaseSync): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS sync_queries (
      id INTEGER PRIMARY KEY, what TEXT NOT NULL, params TEXT NOT NULL, added TEXT NOT NULL,
      UNIQUE (what, params));
    CREATE TABLE IF NOT EXISTS sync_runs (
      id INTEGER PRIMARY KEY, query_id INTEGER NOT NULL REFERENCES sync_queries (id),
      started TEXT NOT NULL, finished TEXT, records INTEGER NOT NULL DEFAULT 0,
      requests INTEGER NOT NULL DEFAULT 0, stopped_by TEXT, position TEXT NOT NULL DEFAULT '{}');`);
  // A database an earlier release made lacks the refresh's round: added, empty for its runs.
  const columns = database.prepare('PRAGMA table_info(sync_runs)').all() as Array<{ name: string }>;
  if (!columns.some((column) => column.name === 'round'))
    database.exec('ALTER TABLE sync_runs ADD COLUMN round INTEGER');
}

/** Where a run tells what it could not refresh or keep: the command says it at its end. */
export interface SyncReport {
  /** A journal or query passed over (see `concernsOne`): named on stderr at once. */
  readonly failed: (what: string, error: Error) => void;
  /** Values their typed columns could not hold, stored as null. */
  readonly unfit: UnfitValues;
}

/** A query as a failure line names it: `journals`, or `papers {"q":"coral"}`. */
export function describeQuery(query: SyncQuery): string {
  return query.what === 'journals' ? 'journals' : `papers ${JSON.stringify(query.params)}`;
}

/** What stopped a run in a way the next `sync DB` continues: a daily limit, Ctrl-C, a kill (no word). */
const continued = new Set([null, 'rate limit', 'interrupted']);

/**
 * The round a refresh of every query (`sync DB`) runs, and the queries it owes. A round a daily limit
 * or Ctrl-C stopped (or a kill) is continued with the queries not done in it, so that the next day's
 * requests do not go again to what it refreshed already. Else (every query done, or the last run
 * failed otherwise: a query the API keeps refusing must not hold the others back) a new round
 * refreshes every query.
 */
export function refreshRound(
  database: DatabaseSync,
  queries: readonly SyncQuery[],
): { round: number; queries: readonly SyncQuery[] } {
  const { last } = database.prepare('SELECT MAX(round) AS last FROM sync_runs').get() as {
    last: number | null;
  };
  if (last === null) return { round: 1, queries };
  const runs = database
    .prepare('SELECT query_id, stopped_by FROM sync_runs WHERE round = ? ORDER BY id')
    .all(last) as Array<{ query_id: number; stopped_by: string | null }>;
  const done = new Set(runs.filter((run) => run.stopped_by === 'done').map((run) => run.query_id));
  const stopped = runs.at(-1);
  if (stopped === undefined || stopped.stopped_by === 'done' || !continued.has(stopped.stopped_by))
    return { round: last + 1, queries };
  const owed = queries.filter((query) => !done.has(query.id));
  return owed.length === 0 ? { round: last + 1, queries } : { round: last, queries: owed };
}

/**
 * The query `what` with `params`, stored if new (the same search twice is one query); `added` when
 * this call stored it.
 */
export function storeQuery(
  database: DatabaseSync,
  what: SyncQuery['what'],
  params: SyncQuery['params'],
  now: number,
): SyncQuery & { readonly added: boolean } {
  // Names in code-unit order: a collation (localeCompare) differs with the locale a run has.
  const text = JSON.stringify(
    Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1))),
  );
  const { changes } = database
    .prepare('INSERT INTO sync_queries (what, params, added) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .run(what, text, new Date(now).toISOString());
  const row = database
    .prepare('SELECT id FROM sync_queries WHERE what = ? AND params = ?')
    .get(what, text) as {
    id: number;
  };
  return { id: row.id, what, params: JSON.parse(text), added: Number(changes) > 0 };
}

/** Removes `query` and its runs. */
export function forgetQuery(database: DatabaseSync, query: SyncQuery): void {
  database.prepare('DELETE FROM sync_runs WHERE query_id = ?').run(query.id);
  database.prepare('DELETE FROM sync_queries WHERE id = ?').run(query.id);
}

/** Whether the database holds a stored query; read only, so that a refusal changes nothing. */
export function holdsQueries(database: DatabaseSync): boolean {
  const table = database
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_queries'")
    .get();
  return table !== undefined && database.prepare('SELECT 1 FROM sync_queries LIMIT 1').get() !== undefined;
}

/** Every stored query, in the order they were added. */
export function storedQueries(database: DatabaseSync): SyncQuery[] {
  const rows = database.prepare('SELECT id, what, params FROM sync_queries ORDER BY id').all() as Array<{
    id: number;
    what: SyncQuery['what'];
    params: string;
  }>;
  return rows.map((row) => ({ id: row.id, what: row.what, params: JSON.parse(row.params) }));
}

/**
 * A new run of `query`: from where the last run stopped if it did not finish (stopped by a limit or
 * Ctrl-C, or killed before it could say), else from the start; `round`, a refresh's of every query.
 */
export function beginRun(
  database: DatabaseSync,
  query: SyncQuery,
  now: number,
  round: number | null = null,
): SyncRun {
  const last = database
    .prepare(
      'SELECT stopped_by, finished, position FROM sync_runs WHERE query_id = ? ORDER BY id DESC LIMIT 1',
    )
    .get(query.id) as { stopped_by: string | null; finished: string | null; position: string } | undefined;
  const unfinished = last !== undefined && last.stopped_by !== 'done';
  const from: SyncPosition = unfinished ? JSON.parse(last.position) : {};
  const earlier = unfinished ? earlierRecords(database, query) : 0;
  const result = database
    .prepare('INSERT INTO sync_runs (query_id, started, position, round) VALUES (?, ?, ?, ?)')
    .run(query.id, new Date(now).toISOString(), JSON.stringify(from), round);
  return { id: Number(result.lastInsertRowid), query, from, earlier, records: 0 };
}

/** The records of the query's runs since its last finished one (those this run continues). */
function earlierRecords(database: DatabaseSync, query: SyncQuery): number {
  const { records } = database
    .prepare(
      `SELECT COALESCE(SUM(records), 0) AS records FROM sync_runs WHERE query_id = ?1 AND id > COALESCE(
         (SELECT MAX(id) FROM sync_runs WHERE query_id = ?1 AND stopped_by = 'done'), 0)`,
    )
    .get(query.id) as { records: number };
  return records;
}

/** Notes `records` more written and the run at `position`: inside the transaction that wrote them. */
export function advance(
  database: DatabaseSync,
  run: SyncRun,
  position: SyncPosition,
  records: number,
  requests: number,
): void {
  run.records += records;
  database
    .prepare('UPDATE sync_runs SET position = ?, records = ?, requests = ? WHERE id = ?')
    .run(JSON.stringify(position), run.records, requests, run.id);
}

/** Ends the run: `done`, or what stopped it (`rate limit`, `interrupted`, an error's name). */
export function endRun(
  database: DatabaseSync,
  run: SyncRun,
  stoppedBy: string,
  now: number,
  requests: number,
): void {
  database
    .prepare('UPDATE sync_runs SET finished = ?, stopped_by = ?, requests = ? WHERE id = ?')
    .run(new Date(now).toISOString(), stoppedBy, requests, run.id);
}
