import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { id } from '../arguments.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runRecord } from '../run.js';

/** `authors get ID`: one author's profile (`GET /authors/{id}`). */
export function authorsGet(parent: Command): void {
  const command = parent
    .command('get')
    .description("one author's profile")
    .argument('<id>', 'the author id', id);
  outputOptions(command).action(
    act<OutputOptions>((context, options, [author]) =>
      runRecord(context, options, () => context.client.authors.get(Number(author))),
    ),
  );
  examples(command, 'scholarly-metrics authors get 1234');
}
