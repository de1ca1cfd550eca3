import { endpoints } from '../../api/endpoints.js';
import { recordCommand } from '../endpoint-command.js';
import { fieldsOf, paperSummaryFields } from '../record-fields.js';

/** `authors get ID`: one author's profile, the fields of each of their papers those of a paper summary. */
export const authorsGet = recordCommand(endpoints.authors.get, {
  description: "one author's profile",
  args: { id: 'the author id; several give one table' },
  variadic: true,
  key: 'id',
  fields: { ...fieldsOf(endpoints.authors.get), papers: paperSummaryFields },
  fetch: (context, [author], _, request) => context.client.authors.get(Number(author), request),
  examples: ['scholarly-metrics authors get 1234', 'scholarly-metrics authors get 1234 1235 --format jsonl'],
});
