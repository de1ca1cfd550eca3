import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { id } from '../arguments.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runRecord } from '../run.js';

/** `journals get ID`: one journal's profile (`GET /journals/{id}`). */
export function journalsGet(parent: Command): void {
  const command = parent
    .command('get')
    .description("one journal's profile")
    .argument('<id>', 'the journal id', id);
  outputOptions(command).action(
    act<OutputOptions>((context, options, [journal]) =>
      runRecord(context, options, () => context.client.journals.get(Number(journal))),
    ),
  );
  examples(command, 'scholarly-metrics journals get 42', 'scholarly-metrics journals get 42 --format json');
}
