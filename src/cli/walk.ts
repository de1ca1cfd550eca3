/**
 * Runs a paginated command: one page, `--limit` items or `--all`, written page by page as they
 * arrive, with progress on a terminal and, with `--output`, a checkpoint as pages arrive so that a
 * stopped run continues with `--resume`.
 */
import type { Command } from 'commander';
import type { PagePromise, PageRequestOptions } from '../index.js';
import type { Context } from './context.js';
import { countOf } from './counts.js';
import { UsageError } from './errors.js';
import { type Harvest, openHarvest } from './harvest.js';
import { sayLastWord } from './last-word.js';
import type { PagingOptions } from './options.js';
import type { Row } from './output/cells.js';

/** The request of one walk, from page `page` with `perPage` items a page. */
export type Lister = (
  context: Context,
  page: number | undefined,
  perPage: number | undefined,
  options: PageRequestOptions,
) => PagePromise<Row>;

export async function runWalk(
  context: Context,
  command: Command,
  options: PagingOptions,
  unit: string,
  list: Lister,
  columns?: readonly string[],
  said?: SaidAs,
): Promise<void> {
  if (options.all && options.limit !== undefined)
    throw new UsageError('--all and --limit exclude each other: give one');
  // Without --all or --limit, one page, as the API answers it: a walk is asked for, never a surprise.
  const limit = options.all ? Number.POSITIVE_INFINITY : options.limit;
  const harvest = await openHarvest(
    context,
    identityOf(command, context.client.baseUrl, said),
    options,
    unit,
    { positions: { min: 1, max: Number.MAX_SAFE_INTEGER }, counts: 'records' },
    columns,
  );
  if ('finished' in harvest) return;
  let walked: Walked;
  try {
    walked = await writePages(context, options, limit, harvest, list);
    await harvest.finish();
  } finally {
    await harvest.close();
  }
  sayWalkEnd(context, options, unit, harvest.count, limit, walked);
}

/** What a walk saw: the total the API counts, and whether a page more is there (one page asked). */
interface Walked {
  total: number | undefined;
  more: boolean;
}

/**
 * Requests the pages and writes their records, up to `limit` of them in all (the records written by
 * the run it resumes counted); `undefined` is one page.
 */
async function writePages(
  context: Context,
  options: PagingOptions,
  limit: number | undefined,
  harvest: Harvest,
  list: Lister,
): Promise<Walked> {
  const walked: Walked = { total: undefined, more: false };
  const walk = list(context, harvest.position ?? options.page, options.perPage, {
    prefetch: limit === undefined ? 0 : options.prefetch,
    signal: context.signal,
  });
  // With --limit, no page past the one that holds the limit-th record is requested, prefetched
  // ones included: each request counts against the daily limit.
  const pages =
    limit === undefined || limit === Number.POSITIVE_INFINITY
      ? walk.pages()
      : walk.pagesUpTo(Math.max(0, limit - harvest.count));
  for await (const page of pages) {
    walked.total = page.total;
    const left = limit === undefined ? page.data.length : Math.max(0, limit - harvest.count);
    const records = left >= page.data.length ? page.data : page.data.slice(0, left);
    await harvest.write(records, page.page + 1, {
      total: Math.min(page.total, limit ?? page.total),
      requests: context.requests(),
    });
    if (limit === undefined) {
      walked.more = page.hasNextPage();
      break;
    }
    if (harvest.count >= limit) break;
  }
  return walked;
}

/** The walk's last word on stderr; on a terminal, one page of more says how to get the rest. */
function sayWalkEnd(
  context: Context,
  options: PagingOptions,
  unit: string,
  count: number,
  limit: number | undefined,
  { total, more }: Walked,
): void {
  // With --output, the hint comes after what was written.
  const hint = more && context.io.stderr.isTTY && context.options.quiet !== true;
  if (!hint || options.output !== undefined) {
    sayLastWord(context, {
      count,
      total: total === undefined ? undefined : Math.min(total, limit ?? total),
      unit,
      output: options.output,
    });
  }
  if (hint) context.io.stderr.write(`${countOf(count, total, unit)}: --limit <n> or --all for more\n`);
}

/**
 * A command's arguments and options in the one form a checkpoint records, where several spellings
 * say the same (`papers search coral reefs`, `--q "coral reefs"`, `--query "coral reefs"`).
 */
export interface SaidAs {
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * The command as a checkpoint records it: its path and every option that changes what is written,
 * so that another command cannot resume into this one's file. How fast it runs does not count. The
 * base URL is the client's, however it was given (`--base-url`, METRIC_BASE_URL), normalised: a run
 * against another server is another command. `said` puts the command's own one form in place.
 */
export function identityOf(command: Command, baseUrl: string, said?: SaidAs): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
  const skip = new Set([
    'resume',
    'overwrite',
    'quiet',
    'debug',
    'prefetch',
    'concurrency',
    'maxRequestsPerMinute',
    // A resumed run may share another Redis, or none; and the URL may hold a password.
    'redis',
    'redisCluster',
    'redisPrefix',
    'redisMaxConcurrency',
    'output',
    // Colour is for the terminal, never in a file.
    'color',
  ]);
  const options: Record<string, unknown> = { ...command.optsWithGlobals(), ...said?.options, baseUrl };
  const given = Object.keys(options)
    .filter((key) => !skip.has(key) && options[key] !== undefined)
    .sort()
    .map((key) => `--${key}=${JSON.stringify(options[key])}`);
  return [...path, ...(said?.args ?? command.args), ...given];
}
