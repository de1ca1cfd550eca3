import { endpoints } from '../../api/endpoints.js';
import { walkCommand } from '../endpoint-command.js';

/** `journals papers ID`: a journal's papers, page by page. */
export const journalsPapers = walkCommand(endpoints.journals.papers, {
  description: "a journal's papers",
  args: { id: 'the journal id' },
  unit: 'papers',
  lister:
    ([journal]) =>
    (context, page, perPage, request) =>
      context.client.journals.papers(Number(journal), { page, per_page: perPage }, request),
  examples: [
    'scholarly-metrics journals papers 42 --limit 200',
    'scholarly-metrics journals papers 42 --all --format csv --output papers-42.csv --resume',
  ],
});
