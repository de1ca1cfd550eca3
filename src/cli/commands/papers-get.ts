import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { runRecord } from '../run.js';

/** `papers get DOI`: one paper (`GET /papers/{doi}`). */
export function papersGet(parent: Command): void {
  const command = parent
    .command('get')
    .description('one paper by its DOI')
    .argument('<doi>', 'the DOI, e.g. 10.1000/xyz');
  outputOptions(command).action(
    act<OutputOptions>((context, options, [doi]) =>
      runRecord(context, options, () => context.client.papers.get(doi ?? '')),
    ),
  );
  examples(command, 'scholarly-metrics papers get 10.1000/xyz');
}
