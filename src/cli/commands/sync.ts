/**
 * `sync DB [WHAT]`: keeps one SQLite database current. `journals` writes every journal's profile
 * and score history with the subjects and countries; `papers --q …` stores its search and writes
 * its papers; with no WHAT, every stored query is refreshed. Every row is upserted (never a
 * duplicate), each run is recorded in `sync_runs`, and a stopped run (a daily limit exits 75,
 * Ctrl-C 130) is continued by the next where it stopped. One sync at a time holds a database.
 */
import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Argument, type Command } from 'commander';
import { act, examples } from '../action.js';
import type { Context } from '../context.js';
import type { CliCommand } from '../endpoint-command.js';
import { concernsOne, failureLine, PartialFailureError, UsageError, whereTold } from '../errors.js';
import { sayLastWord } from '../last-word.js';
import { integer } from '../options.js';
import { terminalSafe } from '../output/escape.js';
import { databaseError, databaseFile, loadSqlite, openDatabase } from '../output/sqlite.js';
import { UnfitValues, unfitWarning } from '../output/typed-values.js';
import { searchFilters, searchTerm } from './papers-search.js';
import { syncJournals } from './sync-journals.js';
import { lockSync } from './sync-lock.js';
import { type PaperSearch, syncPapers } from './sync-papers.js';
import {
  beginRun,
  describeQuery,
  endRun,
  ensureSyncTables,
  forgetQuery,
  holdsQueries,
  refreshRound,
  type SyncQuery,
  type SyncReport,
  type SyncRun,
  storedQueries,
  storeQuery,
} from './sync-store.js';

interface SyncOptions {
  q?: string;
  query?: string;
  year?: number;
  oa?: boolean;
  sort?: string;
  perPage?: number;
}

const whats = ['journals', 'papers'] as const;

/** How a message names the database argument. */
const databaseArgument = 'sync DB';

/** The papers search of the options; its options only with `papers`, which needs a search. */
function searchOf(kind: SyncQuery['what'] | undefined, options: SyncOptions): PaperSearch {
  const { year, oa, sort, perPage } = options;
  const q = searchTerm(options, []);
  const search: PaperSearch = Object.fromEntries(
    Object.entries({ q, year, oa, sort, per_page: perPage }).filter(([, value]) => value !== undefined),
  );
  if (kind === 'papers') refuseNoSearch(search);
  else if (Object.keys(search).length > 0)
    throw new UsageError(
      '--q (or --query), --year, --oa, --sort and --per-page are a papers search: sync DB papers --q …',
    );
  return search;
}

/**
 * Refuses a papers query that narrows nothing: stored, it would walk every paper the API has, and
 * again on every later `sync DB`. A term, a year or open access narrows; a sort or a page size does
 * not. (An empty term is refused by `searchTerm`, even beside a filter: it was meant to narrow too.)
 */
function refuseNoSearch(search: PaperSearch): void {
  if (search.q === undefined && search.year === undefined && search.oa === undefined)
    throw new UsageError(
      'sync DB papers needs a search to store: --q (or --query), --year or --oa (sync DB papers --q climate)',
    );
}

/** Whether the API (400) or the client refused the query's parameters: no run of it can succeed. */
function refused(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'BadRequestError' || name === 'InvalidParameterError';
}

/** What stopped a run, as `sync_runs.stopped_by` records it. */
function stoppedBy(context: Context, error: unknown): string {
  if (context.signal.aborted) return 'interrupted';
  const name = (error as Error | undefined)?.name ?? 'error';
  return name === 'RateLimitError' ? 'rate limit' : name;
}

/** `sync DB` of a database that holds no query, or of no database at all. */
function nothingToRefresh(path: string): UsageError {
  const shown = terminalSafe(path);
  return new UsageError(
    `${shown} holds no query to refresh: sync ${shown} journals, or sync ${shown} papers --q …`,
  );
}

/**
 * Refuses `sync DB` of a file that is not there or holds no query, before anything is made or
 * changed: read through a connection of its own, without the WAL mode `openDatabase` writes into the
 * file. A file that cannot be read is left to `openDatabase`, which says why.
 */
async function refuseNothingToRefresh(path: string, file: string): Promise<void> {
  if (!existsSync(file)) throw nothingToRefresh(path);
  const { DatabaseSync } = await loadSqlite();
  let database: DatabaseSync | undefined;
  let holds = true;
  try {
    database = new DatabaseSync(file);
    holds = holdsQueries(database);
  } catch {
    // Not a database, or locked by another program's write: openDatabase tells which.
  } finally {
    database?.close();
  }
  if (!holds) throw nothingToRefresh(path);
}

async function runSync(
  context: Context,
  path: string,
  kind: SyncQuery['what'] | undefined,
  options: SyncOptions,
) {
  const search = searchOf(kind, options);
  // An empty path is refused first; a misspelt name is not made into an empty database (and its
  // lock) only to be refused, nor a database with nothing to refresh given tables and a lock.
  const file = databaseFile(path, databaseArgument);
  if (kind === undefined) await refuseNothingToRefresh(path, file);
  const database = await openDatabase(path, databaseArgument);
  let lock: { release(): void } | undefined;
  let records = 0;
  const failures: string[] = [];
  const report = failureReport(context, failures);
  try {
    lock = await lockSync(path, databaseArgument);
    ensureSyncTables(database);
    const { named, round, queries } = plannedQueries(database, path, kind, search, context.io.now());
    for (const query of queries) {
      const run = beginRun(database, query, context.io.now(), round);
      try {
        await runQuery(context, { database, path, named, report }, run);
      } finally {
        records += run.earlier + run.records;
        context.progress.clear();
      }
    }
    // Every query's run is recorded: a Ctrl-C from here on stops nothing of the database.
    context.complete();
  } finally {
    lock?.release();
    database.close();
    context.io.stderr.write(unfitWarning(report.unfit));
  }
  sayLastWord(context, { count: records, unit: 'records', output: path });
  if (failures.length > 0) {
    const where = whereTold(context.options.quiet);
    throw new SyncFailuresError(`${failures.length} not refreshed${where}: the next sync asks again`);
  }
}

/** The report of a sync, each journal or query passed over named in `failures` too. */
function failureReport(context: Context, failures: string[]): SyncReport {
  return {
    // Told at once, the progress line erased first: the line names what failed and why.
    failed(what, error) {
      failures.push(what);
      context.progress.clear();
      if (!context.options.quiet) context.io.stderr.write(`${failureLine(what, error)}\n`);
    },
    unfit: new UnfitValues(),
  };
}

/** The query `sync DB WHAT` names, `added` when this sync stored it. */
type NamedQuery = ReturnType<typeof storeQuery>;

/**
 * The queries this sync runs: the one named, or those of the refresh round owed (a round stopped by a
 * daily limit or Ctrl-C is continued with the queries it had not done).
 */
function plannedQueries(
  database: DatabaseSync,
  path: string,
  kind: SyncQuery['what'] | undefined,
  search: PaperSearch,
  now: number,
): { named: NamedQuery | undefined; round: number | null; queries: readonly SyncQuery[] } {
  const named =
    kind === undefined ? undefined : storeQuery(database, kind, search as SyncQuery['params'], now);
  const stored = named === undefined ? storedQueries(database) : [named];
  if (stored.length === 0) throw nothingToRefresh(path);
  const { round, queries } =
    named === undefined ? refreshRound(database, stored) : { round: null, queries: stored };
  return { named, round, queries };
}

/** What each query's run of one sync shares. */
interface SyncTarget {
  readonly database: DatabaseSync;
  readonly path: string;
  readonly named: NamedQuery | undefined;
  readonly report: SyncReport;
}

/**
 * One query's run, ended in `sync_runs` as done or as what stopped it. A refresh of every query
 * passes over one the API keeps failing (the others are owed theirs); anything else stops the sync.
 */
async function runQuery(context: Context, target: SyncTarget, run: SyncRun): Promise<void> {
  const { database, path, named, report } = target;
  const { query } = run;
  const base = context.requests();
  const requests = () => context.requests() - base;
  try {
    await (query.what === 'journals' ? syncJournals : syncPapers)(context, database, run, requests, report);
    endRun(database, run, 'done', context.io.now(), requests());
  } catch (thrown) {
    // As the command reports it, so that `stopped_by` names the error the terminal shows.
    const error = databaseError(path, thrown);
    try {
      endRun(database, run, stoppedBy(context, error), context.io.now(), requests());
      // A search the API refuses, kept, would fail every later `sync DB` before the queries after it.
      if (named?.added && refused(error)) forgetQuery(database, named);
    } catch {
      // The database failed too (locked, full): the run stays unfinished, as after a kill, and
      // `error` says what stopped it.
    }
    if (named !== undefined || !concernsOne(error) || context.signal.aborted) throw error;
    report.failed(`query ${query.id} (${describeQuery(query)})`, error as Error);
  }
}

/** Thrown when some journals or stored queries failed: the others are refreshed, the exit code is 3. */
export class SyncFailuresError extends PartialFailureError {
  override readonly name = 'SyncFailuresError';
}

/** `sync DB [WHAT]`: a command of its own, not under a resource. */
export const sync: CliCommand = {
  group: 'sync',
  add(command: Command) {
    const described = command
      .description('keep one SQLite database current: journals, a papers search, or every stored one')
      .argument('<database>', 'the SQLite file, made if missing')
      // Choices rather than a parser: completion offers them, and commander refuses any other.
      .addArgument(
        new Argument('[what]', `${whats.join(' | ')}; with none, every query the database holds`).choices(
          whats,
        ),
      );
    searchFilters(described, 'papers: ')
      .option('--per-page <n>', "papers: items per page (default: the server's)", integer(1))
      .action(
        act<SyncOptions>((context, options, args) => {
          const path = args[0] as string;
          return runSync(context, path, args[1] as SyncQuery['what'] | undefined, options).catch(
            (error: unknown) => {
              throw databaseError(path, error);
            },
          );
        }),
      );
    examples(
      command,
      'scholarly-metrics sync metrics.sqlite journals',
      'scholarly-metrics sync metrics.sqlite papers --q climate --year 2024',
      'scholarly-metrics sync metrics.sqlite            # refreshes every stored query',
    );
  },
};
