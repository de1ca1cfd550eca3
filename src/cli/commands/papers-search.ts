import type { Command } from 'commander';
import { endpoints } from '../../api/endpoints.js';
import { walkCommand } from '../endpoint-command.js';
import { UsageError } from '../errors.js';
import { booleanOption, integer, type PagingOptions } from '../options.js';

interface SearchOptions extends PagingOptions {
  q?: string;
  query?: string;
  year?: number;
  oa?: boolean;
  sort?: string;
}

/** `papers search [words...]`: papers matching a query, page by page. */
export const papersSearch = walkCommand<SearchOptions>(endpoints.papers.search, {
  description: 'search papers',
  unit: 'papers',
  options: (command) =>
    searchFilters(command.argument('[words...]', 'search words, as typed (joined into the search term)')),
  // The words, --q and --query all give the one term: a run resumes however the term was typed.
  saidAs: (words, options) => ({ args: [], options: { q: searchTerm(options, words), query: undefined } }),
  lister: (words, options) => {
    const q = searchTerm(options, words);
    return (context, page, perPage, request) =>
      context.client.papers.search(
        { q, year: options.year, oa: options.oa, sort: options.sort, page, per_page: perPage },
        request,
      );
  },
  examples: [
    'scholarly-metrics papers search coral reefs --year 2024 --fields id,doi,title,citations -o reefs.tsv',
    'scholarly-metrics papers search --q "coral reefs" --oa true --sort -citations --limit 500 --format jsonl',
    'scholarly-metrics papers search --q climate --all -o climate.jsonl --resume',
  ],
});

/**
 * The options of a papers search, `--q` (or `--query`), `--year`, `--oa` and `--sort`, for this
 * command and `sync`, each described after `lead`.
 */
export function searchFilters(command: Command, lead = ''): Command {
  return command
    .option('--q <text>', `${lead}search term`)
    .option('--query <text>', `${lead}search term (the same as --q)`)
    .option('--year <year>', `${lead}publication year`, integer(1, 9999))
    .addOption(
      booleanOption('--oa <true|false>', `${lead}open access only (true) or not open access (false)`),
    )
    .option('--sort <field>', `${lead}sort selector, e.g. -citations`);
}

/** `--q` or `--query`, and the words typed after `search`, as one term. */
export function searchTerm(
  options: { q?: string; query?: string },
  words: readonly string[],
): string | undefined {
  if (options.q !== undefined && options.query !== undefined)
    throw new UsageError('--q and --query are the same option: give one');
  // An empty term (a script's unset variable) meant to narrow: dropped, the search would be every paper.
  const given = options.q ?? options.query;
  if (given !== undefined && given.trim() === '') {
    const option = options.q === undefined ? '--query' : '--q';
    throw new UsageError(`${option} is empty: give the search term (${option} climate), or leave it out`);
  }
  if (given === undefined && words.length > 0 && words.every((word) => word.trim() === ''))
    throw new UsageError(
      'the search words are empty: give a term (papers search climate), or leave them out',
    );
  const parts = [options.q ?? options.query, ...words].filter((part) => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}
