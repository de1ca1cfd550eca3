/**
 * `sync DB [WHAT]`: the database it keeps, read back by `node:sqlite`. Stopped by a daily limit (exit
 * 75) or by SIGKILL of the bin mid-run, the next run continues: the tables end as one unstopped run
 * writes them, no row twice, none missing; each run recorded in `sync_runs`; a changed score replaced.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run, start } from '../helpers.js';
import { dailyLimit } from '../output/daily-limit.js';
import { clipboardName, expectNameEscaped } from '../output/hostile.js';
import { lockedReport, runWhileLocked } from '../output/locked-database.js';
import { sqliteRows } from '../output/sqlite-rows.js';
import { scratch } from '../resume.js';

const sizes = { journals: 12, papers: 300, authors: 20 };
const mock = useMockServer({ sizes, faults: { latencyMs: 5 } });
const limited = useMockServer({ sizes, limits: dailyLimit(12) });
/** A day's limit above `sync DB journals` (27 requests) but below it and the papers search (30) together. */
const roomy = useMockServer({ sizes, limits: dailyLimit(40) });
const tables = ['journals', 'subjects', 'countries', 'score_points', 'papers'];

const query = sqliteRows;

/** Every table the sync writes, its rows in key order. */
function contents(path: string): Record<string, unknown[]> {
  const existing = new Set(
    query(path, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => row.name),
  );
  return Object.fromEntries(
    tables
      .filter((table) => existing.has(table))
      .map((table) => [table, query(path, `SELECT * FROM ${table} ORDER BY 1, 2`)]),
  );
}

const runs = (path: string) =>
  query(path, 'SELECT query_id, records, requests, stopped_by FROM sync_runs ORDER BY id');

/** Runs `sync` against the limited server until it completes, a limit's reset (the next day, as it were) between runs. */
async function untilDone(args: string[]): Promise<number> {
  for (let runs = 1; runs <= 10; runs += 1) {
    const result = await run(args, { url: limited.server.url });
    if (result.code === 0) return runs;
    expect(result.code, result.stderr).toBe(75);
    expect(result.stderr).toMatch(/run the same command again after/);
    limited.api.reset();
  }
  throw new Error(`sync ${args.join(' ')} did not complete in 10 runs`);
}

async function synced(args: string[], url = mock.server.url): Promise<string> {
  const file = join(scratch(), 'reference.sqlite');
  const result = await run(['sync', file, ...args], { url });
  expect(result.code, result.stderr).toBe(0);
  return file;
}

describe('sync', { timeout: 120_000 }, () => {
  it('journals: stopped by a daily limit (exit 75), then continued, the tables as one run writes them', async () => {
    const reference = contents(await synced(['journals']));
    expect(reference.journals).toHaveLength(12);
    expect(reference.score_points?.length).toBeGreaterThan(12);
    const file = join(scratch(), 'metrics.sqlite');
    const count = await untilDone(['sync', file, 'journals']);
    expect(count).toBeGreaterThan(1);
    expect(contents(file)).toEqual(reference);
    const recorded = runs(file);
    expect(recorded.map((each) => each.stopped_by)).toEqual([
      ...Array.from({ length: count - 1 }, () => 'rate limit'),
      'done',
    ]);
    // Each run asks only for what the stopped ones had not written: 3 lists and 2 requests a journal,
    // besides, for each stop, the refused request and the profile of the journal it stopped within.
    const requests = recorded.reduce((sum, each) => sum + (each.requests as number), 0);
    expect(requests).toBeGreaterThanOrEqual(3 + 2 * 12 + (count - 1));
    expect(requests).toBeLessThanOrEqual(3 + 2 * 12 + 2 * (count - 1));
  });

  it('journals: a changed score replaces the row on the next sync', async () => {
    const file = await synced(['journals']);
    const before = query(file, 'SELECT metric_score FROM journals WHERE id = 5')[0]?.metric_score as number;
    await mock.api.updateScore(5, before + 3);
    const again = await run(['sync', file], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
    expect(query(file, 'SELECT metric_score FROM journals WHERE id = 5')).toEqual([
      { metric_score: before + 3 },
    ]);
    expect(query(file, 'SELECT count(*) AS n FROM journals')).toEqual([{ n: 12 }]);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done', 'done']);
  });

  it('journals: passes over a journal the API no longer has (404, not in its list), run after run', async () => {
    const file = await synced(['journals']);
    const reference = contents(file);
    // A journal an older list held, which the API has since dropped.
    const database = new DatabaseSync(file);
    database.exec("INSERT INTO journals (id, name) VALUES (9999, 'A journal since dropped')");
    database.close();
    for (const _ of [1, 2]) {
      const again = await run(['sync', file], { url: mock.server.url });
      expect(again.code, again.stderr).toBe(0);
    }
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done', 'done', 'done']);
    const { journals, ...others } = contents(file);
    const { journals: referenceJournals, ...referenceOthers } = reference;
    expect(journals).toEqual([
      ...(referenceJournals ?? []),
      expect.objectContaining({ id: 9999, name: 'A journal since dropped', metric_score: null }),
    ]);
    expect(others).toEqual(referenceOthers);
  });

  it('journals: a 404 for a journal the list still holds is told and passed over (exit 3), asked again next run', async () => {
    const file = await synced(['journals']);
    const handle = mock.api.handle.bind(mock.api);
    // Journal 3's profile answers 404 (as from no such journal) while the list still holds it.
    mock.api.handle = (request) =>
      handle(new Request(request.url.replace(/\/journals\/3$/, '/journals/999999'), request));
    try {
      const failed = await run(['sync', file], { url: mock.server.url });
      expect(failed.code).toBe(3);
      expect(failed.stderr).toContain('journal 3: NotFoundError: ');
      expect(failed.stderr).toContain('error: SyncFailuresError: 1 not refreshed (listed above)');
    } finally {
      mock.api.handle = handle;
    }
    // The journals after it were refreshed in the same run, which reached its end.
    const paths = mock.api.requests.map((request) => request.path);
    expect(paths.lastIndexOf('/api/v1/journals/12/score')).toBeGreaterThan(
      paths.lastIndexOf('/api/v1/journals/999999'),
    );
    const stopped = query(file, 'SELECT stopped_by, position FROM sync_runs ORDER BY id');
    expect(stopped.at(-1)).toEqual({
      stopped_by: 'done',
      position: '{"step":"journals","after":12,"failed":[3]}',
    });
    mock.api.reset();
    const again = await run(['sync', file], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
    expect(mock.api.requests.map((request) => request.path)).toContain('/api/v1/journals/3');
  });

  it('journals: one passed over, then the run stopped by a daily limit: the continued run asks for it again', async () => {
    const file = await synced(['journals']);
    const handle = mock.api.handle.bind(mock.api);
    // Journal 3 answers 404 while listed; journal 8's profile meets the day's limit.
    mock.api.handle = (request) => {
      const { pathname } = new URL(request.url);
      if (pathname.endsWith('/journals/8'))
        return Promise.resolve(
          Response.json(
            { error: 'rate_limited', message: 'daily limit' },
            { status: 429, headers: { 'retry-after': '7200' } },
          ),
        );
      return handle(new Request(request.url.replace(/\/journals\/3$/, '/journals/999999'), request));
    };
    try {
      const stopped = await run(['sync', file], { url: mock.server.url });
      expect(stopped.code, stopped.stderr).toBe(75);
      expect(stopped.stderr).toContain('journal 3: NotFoundError: ');
    } finally {
      mock.api.handle = handle;
    }
    mock.api.reset();
    const continued = await run(['sync', file], { url: mock.server.url });
    expect(continued.code, continued.stderr).toBe(0);
    const paths = mock.api.requests.map((request) => request.path);
    expect(paths).toContain('/api/v1/journals/3');
    expect(paths.indexOf('/api/v1/journals/3')).toBeGreaterThan(paths.indexOf('/api/v1/journals/12'));
  });

  it('papers: stores the search; stopped and continued; `sync DB` refreshes it without a duplicate', async () => {
    const search = ['papers', '--per-page', '10'];
    const reference = contents(await synced(search));
    expect(reference.papers).toHaveLength(300);
    const file = join(scratch(), 'metrics.sqlite');
    const count = await untilDone(['sync', file, ...search]);
    expect(count).toBeGreaterThan(1);
    expect(contents(file)).toEqual(reference);
    expect(query(file, 'SELECT what, params FROM sync_queries')).toEqual([
      { what: 'papers', params: '{"per_page":10}' },
    ]);
    const refresh = await run(['sync', file], { url: mock.server.url });
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(contents(file)).toEqual(reference);
    expect(runs(file).map((each) => each.stopped_by)).toEqual([
      ...Array.from({ length: count - 1 }, () => 'rate limit'),
      'done',
      'done',
    ]);
  });

  it('`sync DB` stopped by a daily limit continues its round: what it refreshed is not asked again', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    for (const what of [['journals'], ['papers', '--per-page', '10']]) {
      const stored = await run(['sync', file, ...what], { url: mock.server.url });
      expect(stored.code, stored.stderr).toBe(0);
    }
    // Day 1: the journals are refreshed, the search stopped part-way.
    const first = await run(['sync', file], { url: roomy.server.url });
    expect(first.code, first.stderr).toBe(75);
    // Day 2: the search continues where it stopped; the journals, refreshed this round, are not sent again.
    roomy.api.reset();
    const second = await run(['sync', file], { url: roomy.server.url });
    expect(second.code, second.stderr).toBe(0);
    expect(roomy.api.requests.every((request) => request.path.startsWith('/api/v1/papers'))).toBe(true);
    // Day 3: the round is over, so a new one refreshes both.
    roomy.api.reset();
    const third = await run(['sync', file], { url: roomy.server.url });
    expect(third.code, third.stderr).toBe(75);
    const rounds = query(file, 'SELECT query_id, round, stopped_by FROM sync_runs ORDER BY id');
    expect(rounds).toEqual([
      { query_id: 1, round: null, stopped_by: 'done' },
      { query_id: 2, round: null, stopped_by: 'done' },
      { query_id: 1, round: 1, stopped_by: 'done' },
      { query_id: 2, round: 1, stopped_by: 'rate limit' },
      { query_id: 2, round: 1, stopped_by: 'done' },
      { query_id: 1, round: 2, stopped_by: 'done' },
      { query_id: 2, round: 2, stopped_by: 'rate limit' },
    ]);
    expect(contents(file).papers).toHaveLength(300);
  });

  it('a query the API keeps failing is told and passed over: the queries after it are refreshed, every round', async () => {
    const file = join(scratch(), 'metrics.sqlite');
    for (const q of ['climate', 'coral', 'reef']) {
      const stored = await run(['sync', file, 'papers', '--q', q], { url: mock.server.url });
      expect(stored.code, stored.stderr).toBe(0);
    }
    // The search for coral now fails on the server (refused for good, as a 400 is).
    const handle = mock.api.handle.bind(mock.api);
    mock.api.handle = (request) =>
      new URL(request.url).searchParams.get('q') === 'coral'
        ? Promise.resolve(Response.json({ error: 'bad_request', message: 'no' }, { status: 400 }))
        : handle(request);
    try {
      for (let day = 0; day < 2; day++) {
        const refresh = await run(['sync', file], { url: mock.server.url });
        expect(refresh.code).toBe(3);
        expect(refresh.stderr).toContain('query 2 (papers {"q":"coral"}): BadRequestError: ');
      }
    } finally {
      mock.api.handle = handle;
    }
    const rounds = query(file, 'SELECT query_id, round, stopped_by FROM sync_runs WHERE round IS NOT NULL');
    expect(rounds).toEqual([
      { query_id: 1, round: 1, stopped_by: 'done' },
      { query_id: 2, round: 1, stopped_by: 'BadRequestError' },
      { query_id: 3, round: 1, stopped_by: 'done' },
      { query_id: 1, round: 2, stopped_by: 'done' },
      { query_id: 2, round: 2, stopped_by: 'BadRequestError' },
      { query_id: 3, round: 2, stopped_by: 'done' },
    ]);
  });

  it('journals: a continued run goes on after the last journal done, by id, whatever rows went meanwhile', async () => {
    const file = await synced(['journals']);
    const handle = mock.api.handle.bind(mock.api);
    // Journal 8's profile meets the day's limit: journals 1 to 7 are done.
    mock.api.handle = (request) =>
      new URL(request.url).pathname.endsWith('/journals/8')
        ? Promise.resolve(
            Response.json({ message: 'daily limit' }, { status: 429, headers: { 'retry-after': '7200' } }),
          )
        : handle(request);
    try {
      const stopped = await run(['sync', file], { url: mock.server.url });
      expect(stopped.code, stopped.stderr).toBe(75);
    } finally {
      mock.api.handle = handle;
    }
    // Meanwhile a row is removed (by hand, say): the journals left are still 8 to 12, no fewer, no more.
    const database = new DatabaseSync(file);
    database.exec('DELETE FROM journals WHERE id = 2');
    database.close();
    mock.api.reset();
    const continued = await run(['sync', file], { url: mock.server.url });
    expect(continued.code, continued.stderr).toBe(0);
    const profiles = mock.api.requests
      .map((request) => /\/journals\/(\d+)$/.exec(request.path)?.[1])
      .filter((id) => id !== undefined)
      .map(Number);
    expect(profiles).toEqual([8, 9, 10, 11, 12]);
  });

  it('continues after SIGKILL of the bin mid-run: no row twice, none missing', async () => {
    const reference = contents(await synced(['journals']));
    const file = join(scratch(), 'metrics.sqlite');
    const first = start(['sync', file, 'journals'], { url: mock.server.url });
    let ended = false;
    void first.exited.then(() => {
      ended = true;
    });
    const position = (): number => {
      try {
        const saved = query(file, 'SELECT position FROM sync_runs ORDER BY id DESC LIMIT 1')[0]?.position;
        return (JSON.parse(String(saved ?? '{}')) as { after?: number }).after ?? 0;
      } catch {
        return 0;
      }
    };
    while (position() < 3 && !ended) await new Promise((resolve) => setTimeout(resolve, 10));
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const killed = runs(file)[0];
    expect(killed?.stopped_by).toBe(null);
    const second = await run(['sync', file, 'journals'], { url: mock.server.url });
    expect(second.code, second.stderr).toBe(0);
    expect(contents(file)).toEqual(reference);
    expect(runs(file).at(-1)?.stopped_by).toBe('done');
  });

  it('a second sync of a database while one runs ends at once (exit 1); the first unharmed', async () => {
    const reference = contents(await synced(['journals']));
    const file = join(scratch(), 'metrics.sqlite');
    // The first holds at its first journal's profile until the second has ended.
    const handle = mock.api.handle.bind(mock.api);
    let held = (_: unknown) => {};
    const hold = new Promise((resolve) => {
      held = resolve;
    });
    let reached = (_: unknown) => {};
    const atProfile = new Promise((resolve) => {
      reached = resolve;
    });
    mock.api.handle = async (request) => {
      if (/\/journals\/\d+$/.test(new URL(request.url).pathname)) {
        reached(undefined);
        await hold;
      }
      return handle(request);
    };
    try {
      const first = start(['sync', file, 'journals'], { url: mock.server.url });
      await atProfile;
      const second = await run(['sync', file, 'journals'], { url: mock.server.url });
      held(undefined);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `error: DatabaseError: another sync of ${file} is running: this one ends without asking for anything (run it again once that one is done)\n`,
      );
      const ended = await first.exited;
      expect(ended.code, ended.stderr).toBe(0);
    } finally {
      held(undefined);
      mock.api.handle = handle;
    }
    expect(contents(file)).toEqual(reference);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
  });

  it('a database another program is writing: a DatabaseError naming it (exit 1), no run recorded', async () => {
    const file = await synced(['journals']);
    const locked = await runWhileLocked(file, ['sync', file], { url: mock.server.url });
    expect(locked.code).toBe(1);
    expect(locked.stderr).toBe(lockedReport(file));
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
    const again = await run(['sync', file], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
  });

  it('refuses a search without papers, and a database with nothing stored (exit 2)', async () => {
    const file = join(scratch(), 'empty.sqlite');
    const stray = await run(['sync', file, 'journals', '--q', 'x'], { url: mock.server.url });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('a papers search');
    const nothing = await run(['sync', file], { url: mock.server.url });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('holds no query to refresh');
    // A misspelt name is not made into a database, nor given a lock.
    expect(readdirSync(dirname(file)).filter((name) => name.startsWith('empty.sqlite'))).toEqual([]);
    const stored = await synced(['journals']);
    const emptied = new DatabaseSync(stored);
    emptied.exec('DELETE FROM sync_runs; DELETE FROM sync_queries');
    emptied.close();
    const none = await run(['sync', stored], { url: mock.server.url });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('holds no query to refresh');
  });

  it('keeps no search the API refuses: a later `sync DB` refreshes the others (exit 0)', async () => {
    const file = await synced(['papers', '--per-page', '50']);
    const bogus = await run(['sync', file, 'papers', '--sort', 'bogus'], { url: mock.server.url });
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('BadRequestError');
    expect(query(file, 'SELECT what, params FROM sync_queries')).toEqual([
      { what: 'papers', params: '{"per_page":50}' },
    ]);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
    const refresh = await run(['sync', file], { url: mock.server.url });
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done', 'done']);
  });

  it('echoes the database name escaped in its messages, whatever it holds', async () => {
    const empty = join(scratch(), clipboardName);
    const nothing = await run(['sync', empty], { url: mock.server.url });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('holds no query to refresh');
    expectNameEscaped(nothing.stderr);
    const unopenable = join(scratch(), clipboardName, 'metrics.sqlite');
    const refused = await run(['sync', unopenable, 'journals'], { url: mock.server.url });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('as a SQLite database');
    expectNameEscaped(refused.stderr);
  });
});
