/**
 * `sync DB [WHAT]`: the database it keeps, read back by `node:sqlite`. Stopped by a daily limit (exit
 * 75) or by SIGKILL of the bin mid-run, the next run continues: the tables end as one unstopped run
 * writes them, no row twice, none missing; each run recorded in `sync_runs`; a changed score replaced.
 * What is passed over: sync-passed-over.test.ts; the database itself: sync-database.test.ts.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../../support.js';
import { run, start } from '../helpers.js';
import { dailyLimit } from '../output/daily-limit.js';
import { scratch } from '../resume.js';
import { contents, query, runs, sizes, useLimitedServer, useSyncServer } from './sync-setup.js';

const { mock, synced } = useSyncServer();
const { untilDone } = useLimitedServer();
/** A day's limit above `sync DB journals` (27 requests) but below it and the papers search (30) together. */
const roomy = useMockServer({ sizes, limits: dailyLimit(40) });

describe('sync', { timeout: 120_000 }, () => {
  it('journals: stopped by a daily limit (exit 75), then continued, the tables as one run writes them', async () => {
    const reference = contents(await synced(['journals']));
    expect(reference.journals).toHaveLength(12);
    expect(reference.score_points?.length).toBeGreaterThan(12);
    const file = join(scratch(), 'metrics.sqlite');
    const { count, stderr } = await untilDone(['sync', file, 'journals']);
    expect(count).toBeGreaterThan(1);
    expect(contents(file)).toEqual(reference);
    // The last word counts the stopped runs' records too, as a resumed harvest's does.
    const written = query(file, 'SELECT SUM(records) AS n FROM sync_runs')[0]?.n as number;
    expect(written).toBeGreaterThan(12);
    expect(stderr).toContain(`wrote ${written} records to ${file}`);
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

  it('papers: stores the search; stopped and continued; `sync DB` refreshes it without a duplicate', async () => {
    // A term each of the mock's 300 papers holds: the search is every paper.
    const search = ['papers', '--q', 'a', '--per-page', '10'];
    const reference = contents(await synced(search));
    expect(reference.papers).toHaveLength(300);
    const file = join(scratch(), 'metrics.sqlite');
    const { count } = await untilDone(['sync', file, ...search]);
    expect(count).toBeGreaterThan(1);
    expect(contents(file)).toEqual(reference);
    expect(query(file, 'SELECT what, params FROM sync_queries')).toEqual([
      { what: 'papers', params: '{"per_page":10,"q":"a"}' },
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
    for (const what of [['journals'], ['papers', '--q', 'a', '--per-page', '10']]) {
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
});
