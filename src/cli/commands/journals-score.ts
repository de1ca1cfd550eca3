import { endpoints } from '../../api/endpoints.js';
import { recordCommand } from '../endpoint-command.js';
import { fieldsOf } from '../record-fields.js';

/** The chart's code (asciichart, the table's), loaded only by the command that draws it. */
const chart = () => import('../output/chart.js');

const { history, ...score } = fieldsOf(endpoints.journals.score) ?? {};
/** csv, tsv and jsonl write a row per point of the history, with its journal's id. */
const pointFields = { journal_id: null, ...history };

/**
 * `journals score ID...`: a journal's current score and history (several ids: one document of them). On a terminal, without `--format`,
 * the history is drawn as a chart before the table; in csv, tsv and jsonl it is a row per point.
 */
export const journalsScore = recordCommand(endpoints.journals.score, {
  description: "a journal's score history; on a terminal, drawn as a chart",
  args: { id: 'the journal id; several give one table' },
  variadic: true,
  key: 'journal_id',
  fields: { ...score, history: history ?? null, ...pointFields },
  fetch: (context, [journal], _, request) => context.client.journals.score(Number(journal), request),
  views: ([journal]) => ({
    fields: [...Object.keys(score), 'history'],
    table: async (record, columns, drawn, paint) => (await chart()).scoreTable(record, columns, drawn, paint),
    rows: {
      of: async (record) => (await chart()).scoreRows(Number(journal), record),
      columns: Object.keys(pointFields),
      unit: 'score points',
    },
  }),
  examples: [
    'scholarly-metrics journals score 42',
    'scholarly-metrics journals score 42 --format csv          # one row per point: journal_id,date,score',
    'scholarly-metrics journals score 2 5 7 -o scores.csv      # one table of the three histories',
  ],
});
