import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { integer, type PagingOptions, pagingOptions } from '../options.js';
import { recordFields, topFields } from '../record-fields.js';
import { runWalk } from '../walk.js';
import { searchTerm } from './papers-search.js';

interface AuthorOptions extends PagingOptions {
  q?: string;
  query?: string;
  countryId?: number;
  fieldId?: number;
  sort?: string;
}

/** `authors list`: authors, page by page (`GET /authors`; the endpoint takes no `per_page`). */
export function authorsList(parent: Command): void {
  const command = parent
    .command('list')
    .description('list and search authors')
    .option('--q <text>', 'search term')
    .option('--query <text>', 'search term (the same as --q)')
    .option('--country-id <id>', 'only authors of this country', integer(1))
    .option('--field-id <id>', 'only authors of this field', integer(1))
    .option('--sort <field>', 'sort selector');
  pagingOptions(command, { perPage: false, fields: recordFields.author }).action(
    act<AuthorOptions>((context, options, _, self) =>
      runWalk(
        context,
        self,
        options,
        'authors',
        (ctx, page, _perPage, request) =>
          ctx.client.authors.list(
            {
              q: searchTerm(options, []),
              country_id: options.countryId,
              field_id: options.fieldId,
              sort: options.sort,
              page,
            },
            request,
          ),
        topFields(recordFields.author),
      ),
    ),
  );
  examples(command, 'scholarly-metrics authors list --q okafor --country-id 7');
}
