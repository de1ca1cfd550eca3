import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { UsageError } from '../errors.js';
import { boolean, integer, type PagingOptions, pagingOptions } from '../options.js';
import { recordFields, topFields } from '../record-fields.js';
import { runWalk } from '../walk.js';

interface SearchOptions extends PagingOptions {
  q?: string;
  query?: string;
  year?: number;
  oa?: boolean;
  sort?: string;
}

/** `papers search [words...]`: papers matching a query, page by page (`GET /papers`). */
export function papersSearch(parent: Command): void {
  const command = parent
    .command('search')
    .description('search papers')
    .argument('[words...]', 'search words, as typed (joined into the search term)')
    .option('--q <text>', 'search term')
    .option('--query <text>', 'search term (the same as --q)')
    .option('--year <year>', 'publication year', integer(0, 9999))
    .option('--oa <true|false>', 'open access only (true) or not open access (false)', boolean)
    .option('--sort <field>', 'sort selector, e.g. -citations');
  pagingOptions(command, { fields: recordFields.paperSummary }).action(
    act<SearchOptions>((context, options, words, self) => {
      const q = searchTerm(options, words);
      return runWalk(
        context,
        self,
        options,
        'papers',
        (ctx, page, perPage, request) =>
          ctx.client.papers.search(
            { q, year: options.year, oa: options.oa, sort: options.sort, page, per_page: perPage },
            request,
          ),
        topFields(recordFields.paperSummary),
      );
    }),
  );
  examples(
    command,
    'scholarly-metrics papers search coral reefs --year 2024 --fields id,doi,title,citations -o reefs.tsv',
    'scholarly-metrics papers search --q "coral reefs" --oa true --sort -citations --limit 500 --format jsonl',
    'scholarly-metrics papers search --q climate --all -o climate.jsonl --resume',
  );
}

/** `--q` or `--query`, and the words typed after `search`, as one term. */
export function searchTerm(
  options: { q?: string; query?: string },
  words: readonly string[],
): string | undefined {
  if (options.q !== undefined && options.query !== undefined)
    throw new UsageError('--q and --query are the same option: give one');
  const parts = [options.q ?? options.query, ...words].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}
