/**
 * Runs a paginated command: one page, `--limit` items or `--all`, written page by page as they
 * arrive, with progress on a terminal and, with `--output`, a checkpoint after each page so that a
 * stopped run continues with `--resume`.
 */
import type { Command } from 'commander';
import type { PagePromise, PageRequestOptions } from '../core/pagination.js';
import { type Checkpoint, readCheckpoint, writeCheckpoint } from './checkpoint.js';
import { type Context, openSink } from './context.js';
import { UsageError } from './errors.js';
import type { PagingOptions } from './options.js';
import type { Row } from './output/cells.js';
import { chooseFormat, listWriter } from './output/formats.js';
import { Progress } from './progress.js';

/** The request of one walk: `params` with the page to start from and the walk's options. */
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
): Promise<void> {
  if (options.all && options.limit !== undefined)
    throw new UsageError('--all and --limit exclude each other: give one');
  if (options.resume && options.output === undefined) throw new UsageError('--resume needs --output <file>');
  // Without --all or --limit, one page, as the API answers it: a walk is asked for, never a surprise.
  const limit = options.all ? Number.POSITIVE_INFINITY : options.limit;
  const identity = identityOf(command);
  const saved =
    options.output !== undefined && options.resume
      ? await readCheckpoint(options.output, identity)
      : undefined;
  if (saved?.complete) {
    process.stderr.write(`${options.output} is complete: nothing left to resume\n`);
    return;
  }
  const sink = await openSink(options.output, saved?.bytes ?? 0);
  const format = chooseFormat(options.format, sink.isTerminal, true);
  const writer = listWriter(format, sink.columns, saved?.writer);
  const progress = Progress.for(process.stderr, context.options.quiet === true, unit);
  const checkpoint = async (position: number, complete: boolean) => {
    if (options.output === undefined) return;
    const state: Checkpoint = {
      command: identity,
      bytes: sink.bytes,
      writer: writer.state(),
      position,
      complete,
    };
    await writeCheckpoint(options.output, state);
  };
  let written = writer.state().count;
  let total: number | undefined;
  let more = false;
  try {
    const walk = list(context, saved?.position ?? options.page, options.perPage, {
      prefetch: limit === undefined ? 0 : options.prefetch,
      signal: context.signal,
    });
    for await (const page of walk.pages()) {
      total = page.total;
      const wanted = limit === undefined ? page.data : page.data.slice(0, Math.max(0, limit - written));
      await sink.write(writer.rows(wanted));
      written += wanted.length;
      await checkpoint(page.page + 1, false);
      progress.update({
        done: written,
        total: Math.min(total, limit ?? total),
        requests: context.requests(),
      });
      if (limit === undefined) {
        more = page.hasNextPage();
        break;
      }
      if (written >= limit) break;
    }
    await sink.write(writer.end());
    await checkpoint(0, true);
  } finally {
    progress.clear();
    await sink.close();
  }
  if (more && process.stderr.isTTY && !context.options.quiet) {
    process.stderr.write(`${written} of ${total} ${unit}: --limit <n> or --all for more\n`);
  }
}

/**
 * The command as a checkpoint records it: its path and every option that changes what is written,
 * so that another command cannot resume into this one's file. How fast it runs does not count.
 */
export function identityOf(command: Command): string[] {
  const path: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
  const skip = new Set([
    'resume',
    'quiet',
    'debug',
    'prefetch',
    'concurrency',
    'maxRequestsPerMinute',
    'output',
  ]);
  const options = command.optsWithGlobals();
  const given = Object.keys(options)
    .filter((key) => !skip.has(key) && options[key] !== undefined)
    .sort()
    .map((key) => `--${key}=${JSON.stringify(options[key])}`);
  return [...path, ...command.args, ...given];
}
