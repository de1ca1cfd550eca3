// `sync DB papers` continued where a stopped run left it: the progress line counts the papers of the
// pages before as the earlier run's, so its rate and time left are this run's own.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { syncPapers } from '../../../src/cli/commands/sync-papers.js';
import { ensureSyncTables, type SyncReport, storeQuery } from '../../../src/cli/commands/sync-store.js';
import type { Context } from '../../../src/cli/context.js';
import { UnfitValues } from '../../../src/cli/output/typed-values.js';
import { Progress } from '../../../src/cli/progress.js';
import { Secrets } from '../../../src/cli/secrets.js';
import { createMockApi } from '../../../src/testing/index.js';
import { testClient } from '../../support.js';

describe('sync DB papers, continued', () => {
  it.each([
    ['--per-page 5', { per_page: 5 }, 5],
    ['the server’s page size', {}, 20],
  ])('from page 3 with %s: the pages before are the earlier run’s', async (_, search, pageSize) => {
    const api = createMockApi({ sizes: { journals: 5, papers: 60, authors: 5 } });
    const database = new DatabaseSync(':memory:');
    ensureSyncTables(database);
    const query = storeQuery(database, 'papers', search, Date.now());
    const progress = new Progress(undefined);
    const bases: number[] = [];
    const rebase = progress.rebase.bind(progress);
    progress.rebase = (base) => {
      bases.push(base);
      rebase(base);
    };
    const context = {
      client: testClient({}, api),
      signal: new AbortController().signal,
      progress,
      requests: () => 0,
      io: { answerSecrets: new Secrets() },
    };
    const run = { id: 1, query, from: { page: 3 }, records: 0 };
    const report = { unfit: new UnfitValues(), failed: () => {} } as unknown as SyncReport;
    await syncPapers(context as unknown as Context, database, run, () => 0, report);
    expect(bases).toEqual([2 * pageSize]);
    expect(run.records).toBe(60 - 2 * pageSize);
    database.close();
  });
});
