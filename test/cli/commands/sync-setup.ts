// What the `sync` tests share: the mock's sizes, the tables read back whole, and servers with the
// runs against them (one without a limit, one with a daily limit a sync meets).
import { join } from 'node:path';
import { expect } from 'vitest';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';
import { dailyLimit } from '../output/daily-limit.js';
import { sqliteRows } from '../output/sqlite-rows.js';
import { scratch } from '../resume.js';

export const sizes = { journals: 12, papers: 300, authors: 20 };
const tables = ['journals', 'subjects', 'countries', 'score_points', 'papers'];

export const query = sqliteRows;

/** Every table the sync writes, its rows in key order. */
export function contents(path: string): Record<string, unknown[]> {
  const existing = new Set(
    query(path, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => row.name),
  );
  return Object.fromEntries(
    tables
      .filter((table) => existing.has(table))
      .map((table) => [table, query(path, `SELECT * FROM ${table} ORDER BY 1, 2`)]),
  );
}

export const runs = (path: string) =>
  query(path, 'SELECT query_id, records, requests, stopped_by FROM sync_runs ORDER BY id');

/** The test file's mock server, and `synced`: a database `sync` filled from it. */
export function useSyncServer() {
  const mock = useMockServer({ sizes, faults: { latencyMs: 5 } });

  async function synced(args: string[], url = mock.server.url): Promise<string> {
    const file = join(scratch(), 'reference.sqlite');
    const result = await run(['sync', file, ...args], { url });
    expect(result.code, result.stderr).toBe(0);
    return file;
  }

  return { mock, synced };
}

/** A mock server with a daily limit of 12 requests, and `untilDone` against it. */
export function useLimitedServer() {
  const limited = useMockServer({ sizes, limits: dailyLimit(12) });

  /**
   * Runs `sync` against the limited server until it completes, a limit's reset (the next day, as it
   * were) between runs; resolves to the number of runs and the last one's stderr.
   */
  async function untilDone(args: string[]): Promise<{ count: number; stderr: string }> {
    for (let runs = 1; runs <= 10; runs += 1) {
      const result = await run(args, { url: limited.server.url });
      if (result.code === 0) return { count: runs, stderr: result.stderr };
      expect(result.code, result.stderr).toBe(75);
      expect(result.stderr).toMatch(/run the same command again after/);
      limited.api.reset();
    }
    throw new Error(`sync ${args.join(' ')} did not complete in 10 runs`);
  }

  return { limited, untilDone };
}
