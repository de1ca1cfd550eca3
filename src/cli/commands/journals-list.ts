import { endpoints } from '../../api/endpoints.js';
import { listCommand } from '../endpoint-command.js';
import { integer, type OutputOptions } from '../options.js';

/** `journals list`: every journal, or the first `--limit`. */
export const journalsList = listCommand<OutputOptions & { limit?: number }>(endpoints.journals.list, {
  description: 'every journal',
  unit: 'journals',
  options: (command) => command.option('--limit <n>', 'the first n journals only', integer(1)),
  fetch: async (context, _, options, request) =>
    (await context.client.journals.list(request)).slice(0, options.limit),
  examples: [
    'scholarly-metrics journals list -o journals.csv',
    'scholarly-metrics journals list --limit 10 --fields id,name,quartile,metric_score',
  ],
});
