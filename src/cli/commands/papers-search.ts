import type { Command } from 'commander';
import { act, examples } from '../action.js';
import { boolean, integer, type PagingOptions, pagingOptions } from '../options.js';
import { runWalk } from '../walk.js';

interface SearchOptions extends PagingOptions {
  q?: string;
  year?: number;
  oa?: boolean;
  sort?: string;
}

/** `papers search`: papers matching a query, page by page (`GET /papers`). */
export function papersSearch(parent: Command): void {
  const command = parent
    .command('search')
    .description('search papers')
    .option('--q <text>', 'search term')
    .option('--year <year>', 'publication year', integer(0, 9999))
    .option('--oa <true|false>', 'open access only (true) or not open access (false)', boolean)
    .option('--sort <field>', 'sort selector, e.g. -citations');
  pagingOptions(command).action(
    act<SearchOptions>((context, options, _, self) =>
      runWalk(context, self, options, 'papers', (ctx, page, perPage, request) =>
        ctx.client.papers.search(
          { q: options.q, year: options.year, oa: options.oa, sort: options.sort, page, per_page: perPage },
          request,
        ),
      ),
    ),
  );
  examples(
    command,
    'scholarly-metrics papers search --q "coral reefs" --year 2024 --oa true --sort -citations --limit 500 --format jsonl',
    'scholarly-metrics papers search --q climate --all --format jsonl --output climate.jsonl --resume',
  );
}
