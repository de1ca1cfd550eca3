import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { id } from '../arguments.js';
import { type OutputOptions, outputOptions } from '../options.js';
import { recordFields } from '../record-fields.js';
import { runRecord } from '../run.js';

/** The chart's code (asciichart, the table's), loaded only by the command that draws it. */
const chart = () => import('../output/chart.js');

/**
 * `journals score ID`: a journal's current score and history (`GET /journals/{id}/score`). On a
 * terminal, without `--format`, the history is drawn as a chart before the table; in csv, tsv and
 * jsonl it is a row per point.
 */
export function journalsScore(parent: Command): void {
  const command = parent
    .command('score')
    .description("a journal's score history; on a terminal, drawn as a chart")
    .argument('<id>', 'the journal id', id);
  outputOptions(command, recordFields.score).action(
    act<OutputOptions>((context, options, [journal]) =>
      runRecord(context, options, () => context.client.journals.score(Number(journal)), {
        table: async (record, columns, drawn, paint) =>
          (await chart()).scoreTable(record, columns, drawn, paint),
        rows: {
          of: async (record) => (await chart()).scoreRows(Number(journal), record),
          columns: ['journal_id', 'date', 'score'],
        },
      }),
    ),
  );
  examples(
    command,
    'scholarly-metrics journals score 42',
    'scholarly-metrics journals score 42 --format csv          # one row per point: journal_id,date,score',
  );
}
