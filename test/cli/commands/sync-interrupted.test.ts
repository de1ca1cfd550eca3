// `sync` over --mock (answers made in this process, writes synchronous) still hears Ctrl-C: it stops
// with 130, its run recorded as interrupted, rather than running on to the end.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { start } from '../helpers.js';
import { sqliteRows } from '../output/sqlite-rows.js';
import { scratch } from '../resume.js';

/** Whether `database` holds at least `count` papers yet (it may not exist, or be mid-write). */
function holds(database: string, count: number): boolean {
  if (!existsSync(database)) return false;
  try {
    return Number(sqliteRows(database, 'SELECT count(*) AS n FROM papers')[0]?.n) >= count;
  } catch {
    return false;
  }
}

describe('sync --mock, stopped by Ctrl-C', { timeout: 120_000 }, () => {
  it('ends with 130 once some papers are written, not at the end of the walk', async () => {
    const database = join(scratch(), 'metrics.sqlite');
    const run = start(['--mock', '--quiet', 'sync', database, 'papers', '--q', 'a']);
    let ended = false;
    void run.exited.then(() => {
      ended = true;
    });
    while (!holds(database, 200) && !ended) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    run.child.kill('SIGINT');
    const stopped = await run.exited;
    expect(stopped.code, stopped.stderr).toBe(130);
    const [last] = sqliteRows(database, 'SELECT stopped_by FROM sync_runs ORDER BY id DESC LIMIT 1');
    expect(last?.stopped_by).toBe('interrupted');
  });
});
