import { endpoints } from '../../api/endpoints.js';
import { normaliseDoi } from '../doi-forms.js';
import { recordCommand } from '../endpoint-command.js';

/** `papers get DOI`: one paper. */
export const papersGet = recordCommand(endpoints.papers.get, {
  description: 'one paper by its DOI',
  args: { doi: 'the DOI, e.g. 10.1000/abc/def (a doi.org URL or doi: prefix is taken off)' },
  // As people have DOIs, and as get-many reads them.
  fetch: (context, [doi], _, request) => context.client.papers.get(normaliseDoi(doi ?? ''), request),
  // DOIs the built-in mock has (MOCK_DOIS): every example runs with --mock.
  examples: ['scholarly-metrics papers get 10.1000/abc/def'],
});
