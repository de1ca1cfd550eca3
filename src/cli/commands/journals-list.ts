import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runList } from '../run.js';

/** `journals list`: every journal (`GET /journals`). */
export function journalsList(parent: Command): void {
  const command = parent.command('list').description('every journal');
  outputOptions(command).action(
    act<OutputOptions>((context, options) =>
      runList(context, options, 'journals', () => context.client.journals.list()),
    ),
  );
  examples(command, 'scholarly-metrics journals list --format csv > journals.csv');
}
