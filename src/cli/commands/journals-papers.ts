import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { id } from '../arguments.js';
import { type PagingOptions, pagingOptions } from '../options.js';
import { recordFields, topFields } from '../record-fields.js';
import { runWalk } from '../walk.js';

/** `journals papers ID`: a journal's papers, page by page (`GET /journals/{id}/papers`). */
export function journalsPapers(parent: Command): void {
  const command = parent
    .command('papers')
    .description("a journal's papers")
    .argument('<id>', 'the journal id', id);
  pagingOptions(command, { fields: recordFields.journalPaper }).action(
    act<PagingOptions>((context, options, [journal], self) =>
      runWalk(
        context,
        self,
        options,
        'papers',
        (ctx, page, perPage, request) =>
          ctx.client.journals.papers(Number(journal), { page, per_page: perPage }, request),
        topFields(recordFields.journalPaper),
      ),
    ),
  );
  examples(
    command,
    'scholarly-metrics journals papers 42 --limit 200',
    'scholarly-metrics journals papers 42 --all --format csv --output papers-42.csv --resume',
  );
}
