// `sync DB papers` continued where a stopped run left it: the progress line counts the papers of the
// pages before as the earlier run's, so its rate and time left are this run's own. And a search is
// stored as one text whatever the locale of the run.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
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
    const run = { id: 1, query, from: { page: 3 }, earlier: 40, records: 0 };
    const report = { unfit: new UnfitValues(), failed: () => {} } as unknown as SyncReport;
    await syncPapers(context as unknown as Context, database, run, () => 0, report);
    expect(bases).toEqual([2 * pageSize]);
    expect(run.records).toBe(60 - 2 * pageSize);
    database.close();
  });
});

describe('a stored query', () => {
  it('is one text whatever the locale: its names in code-unit order, not a collation', () => {
    // Lithuanian collates `y` with `i`, before `q`: a cron job in lt_LT would store a second query.
    const lithuanian = new Intl.Collator('lt');
    const compare = vi.spyOn(String.prototype, 'localeCompare').mockImplementation(function (
      this: string,
      other: string,
    ) {
      return lithuanian.compare(this, other);
    });
    try {
      const database = new DatabaseSync(':memory:');
      ensureSyncTables(database);
      const first = storeQuery(database, 'papers', { year: 2024, q: 'climate' }, 0);
      const again = storeQuery(database, 'papers', { q: 'climate', year: 2024 }, 0);
      expect(again.id).toBe(first.id);
      const { params } = database.prepare('SELECT params FROM sync_queries').get() as { params: string };
      expect(params).toBe('{"q":"climate","year":2024}');
    } finally {
      compare.mockRestore();
    }
  });
});
