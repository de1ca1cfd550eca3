/**
 * `sync DB papers --q …`: the papers of a stored search, page by page, each page one transaction
 * with the run's position (the next page), so that a stopped run continues with the next page.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Context } from '../context.js';
import type { Row } from '../output/cells.js';
import { recordKinds } from '../output/record-kinds.js';
import { inTransaction } from '../output/sqlite.js';
import { upserter } from '../output/sqlite-upsert.js';
import { withoutSecrets } from '../secrets.js';
import { advance, type SyncReport, type SyncRun } from './sync-store.js';

/** The search of a stored papers query. */
export interface PaperSearch {
  q?: string;
  year?: number;
  oa?: boolean;
  sort?: string;
  per_page?: number;
}

/** Writes what `run` has left of its search's papers; `requests` counts this run's requests. */
export async function syncPapers(
  context: Context,
  database: DatabaseSync,
  run: SyncRun,
  requests: () => number,
  { unfit }: SyncReport,
): Promise<void> {
  const kind = recordKinds['papers search'];
  if (kind === undefined) throw new Error('no record kind papers search');
  const paper = upserter(database, kind, unfit);
  const search = run.query.params as PaperSearch;
  const walk = context.client.papers.search(
    { ...search, page: run.from.page ?? 1 },
    { prefetch: 1, signal: context.signal },
  );
  context.progress.begin('papers', 0);
  let done = 0;
  let before: number | undefined;
  for await (const page of walk.pages()) {
    const records = withoutSecrets(page.data as readonly Row[], context.io.answerSecrets);
    inTransaction(database, () => {
      for (const record of records) paper(record);
      advance(database, run, { page: page.page + 1 }, records.length, requests());
    });
    done += records.length;
    if (before === undefined) {
      // The papers of the pages a stopped run wrote: its own, not this run's, in the rate and time left.
      before = ((run.from.page ?? 1) - 1) * (search.per_page ?? page.data.length);
      context.progress.rebase(before);
    }
    context.progress.update({ done: before + done, total: page.total, requests: context.requests() });
    // Pages answered in this process (--mock) never leave the microtask queue, and the writes are
    // synchronous: a turn of the event loop a page lets a Ctrl-C be heard.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
