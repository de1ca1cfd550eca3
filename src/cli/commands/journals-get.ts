import { endpoints } from '../../api/endpoints.js';
import { recordCommand } from '../endpoint-command.js';

/** `journals get ID`: one journal's profile. */
export const journalsGet = recordCommand(endpoints.journals.get, {
  description: "one journal's profile",
  args: { id: 'the journal id; several give one table' },
  variadic: true,
  key: 'id',
  fetch: (context, [journal], _, request) => context.client.journals.get(Number(journal), request),
  examples: [
    'scholarly-metrics journals get 42',
    'scholarly-metrics journals get 42 --format json',
    'scholarly-metrics journals get 2 5 7 --format csv      # one table, a row per journal',
  ],
});
