import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { id } from '../arguments.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { scoreTable } from '../output/chart.js';
import { runRecord } from '../run.js';

/**
 * `journals score ID`: a journal's current score and history (`GET /journals/{id}/score`). On a
 * terminal, without `--format`, the history is drawn as a chart before the table.
 */
export function journalsScore(parent: Command): void {
  const command = parent
    .command('score')
    .description("a journal's score history; on a terminal, drawn as a chart")
    .argument('<id>', 'the journal id', id);
  outputOptions(command).action(
    act<OutputOptions>((context, options, [journal]) =>
      runRecord(context, options, () => context.client.journals.score(Number(journal)), scoreTable),
    ),
  );
  examples(
    command,
    'scholarly-metrics journals score 42',
    'scholarly-metrics journals score 42 --format csv',
  );
}
