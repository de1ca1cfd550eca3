import { endpoints } from '../../api/endpoints.js';
import { walkCommand } from '../endpoint-command.js';
import { integer, type PagingOptions } from '../options.js';
import { searchTerm } from './papers-search.js';

interface AuthorOptions extends PagingOptions {
  q?: string;
  query?: string;
  countryId?: number;
  fieldId?: number;
  sort?: string;
}

/** `authors list`: authors, page by page (the endpoint takes no `per_page`). */
export const authorsList = walkCommand<AuthorOptions>(endpoints.authors.list, {
  description: 'list and search authors',
  unit: 'authors',
  options: (command) =>
    command
      .option('--q <text>', 'search term')
      .option('--query <text>', 'search term (the same as --q)')
      .option('--country-id <id>', 'only authors of this country', integer())
      .option('--field-id <id>', 'only authors of this field', integer())
      .option('--sort <field>', 'sort selector'),
  // --q and --query give the one term: a run resumes however the term was typed.
  saidAs: (_, options) => ({ args: [], options: { q: searchTerm(options, []), query: undefined } }),
  lister: (_, options) => (context, page, _perPage, request) =>
    context.client.authors.list(
      {
        q: searchTerm(options, []),
        country_id: options.countryId,
        field_id: options.fieldId,
        sort: options.sort,
        page,
      },
      request,
    ),
  examples: ['scholarly-metrics authors list --q okafor --country-id 7'],
});
