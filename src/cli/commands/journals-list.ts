import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { integer, type OutputOptions, outputOptions } from '../options.js';
import { recordFields, topFields } from '../record-fields.js';
import { runList } from '../run.js';

/** `journals list`: every journal (`GET /journals`). */
export function journalsList(parent: Command): void {
  const command = parent
    .command('list')
    .description('every journal')
    .option('--limit <n>', 'the first n journals only', integer(1));
  outputOptions(command, recordFields.journal).action(
    act<OutputOptions & { limit?: number }>((context, options) =>
      runList(
        context,
        options,
        'journals',
        async () => (await context.client.journals.list()).slice(0, options.limit),
        {
          columns: topFields(recordFields.journal),
        },
      ),
    ),
  );
  examples(
    command,
    'scholarly-metrics journals list -o journals.csv',
    'scholarly-metrics journals list --limit 10 --fields id,name,quartile,metric_score',
  );
}
