// `sync` passes over what the API refuses (a journal gone, a query that keeps failing), tells it, and
// refreshes the rest, run after run.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers.js';
import { scratch } from '../resume.js';
import { contents, query, runs, useSyncServer } from './sync-setup.js';

const { mock, synced } = useSyncServer();

describe('sync', { timeout: 120_000 }, () => {
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

  it('keeps no search the API refuses: a later `sync DB` refreshes the others (exit 0)', async () => {
    const file = await synced(['papers', '--q', 'a', '--per-page', '50']);
    const bogus = await run(['sync', file, 'papers', '--q', 'a', '--sort', 'bogus'], {
      url: mock.server.url,
    });
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('BadRequestError');
    expect(query(file, 'SELECT what, params FROM sync_queries')).toEqual([
      { what: 'papers', params: '{"per_page":50,"q":"a"}' },
    ]);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done']);
    const refresh = await run(['sync', file], { url: mock.server.url });
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(runs(file).map((each) => each.stopped_by)).toEqual(['done', 'done']);
  });
});
