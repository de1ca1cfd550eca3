import { endpoints } from '../../api/endpoints.js';
import { recordCommand } from '../endpoint-command.js';

/** `authors get ID`: one author's profile. */
export const authorsGet = recordCommand(endpoints.authors.get, {
  description: "one author's profile",
  args: { id: 'the author id; several give one table' },
  variadic: true,
  key: 'id',
  fetch: (context, [author], _, request) => context.client.authors.get(Number(author), request),
  examples: ['scholarly-metrics authors get 1234', 'scholarly-metrics authors get 1234 1235 --format jsonl'],
});
