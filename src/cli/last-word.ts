/**
 * The line a command ends with on stderr (unless `--quiet`): with `--output`, what was written where,
 * with the requests and the time it took; on a terminal without it, how many records; and when
 * nothing matched, that nothing did, so an empty file or screen is never a riddle.
 */
import type { Context } from './context.js';
import { countOf, grouped, unitFor } from './counts.js';
import { terminalSafe } from './output/escape.js';
import { clock } from './progress.js';

export interface Written {
  /** Records in the output, a resumed run's included. */
  readonly count: number;
  /** What the command was to write: the walk's total (within --limit), the DOIs given. */
  readonly total?: number | undefined;
  /** The records' name, plural (`papers`, `journals`); said singular by {@link unitFor} for one. */
  readonly unit: string;
  readonly output: string | undefined;
  /** Ids the API did not know, each named on stderr after this line: what an empty file holds is then told. */
  readonly notFound?: number | undefined;
  /** Said after the count, e.g. `skipped 3 blank lines`. */
  readonly notes?: readonly string[] | undefined;
}

/** Writes the last word of a command that wrote `written`; nothing with `--quiet`. */
export function sayLastWord(context: Context, written: Written): void {
  const line = lastWord(written, context.requests(), (context.io.now() - context.started) / 1000, {
    terminal: context.io.stderr.isTTY === true,
  });
  if (line !== undefined && context.options.quiet !== true) context.io.stderr.write(`${line}\n`);
}

/**
 * `wrote 1,188 of 1,188 papers to climate.jsonl (60 requests, 0.8 s)`, `1,188 papers` (a terminal, no
 * file), `0 papers match`; `undefined` when there is nothing to say (a pipe, no file).
 */
export function lastWord(
  written: Written,
  requests: number,
  seconds: number,
  { terminal }: { terminal: boolean },
): string | undefined {
  const line = countLine(written, requests, seconds, terminal);
  const notes = written.notes ?? [];
  return line === undefined || notes.length === 0 ? line : `${line}; ${notes.join('; ')}`;
}

function countLine(
  { count, total, unit, output, notFound = 0 }: Written,
  requests: number,
  seconds: number,
  terminal: boolean,
): string | undefined {
  // None written of what there was (every DOI or id failed, a page past the end) is said as any count is.
  const owed = (total ?? 0) > 0 || notFound > 0;
  if (count === 0 && !owed && (output !== undefined || terminal)) return `0 ${unit} match`;
  if (output !== undefined) {
    const sent = `${grouped(requests)} request${requests === 1 ? '' : 's'}`;
    // The file's name as the user typed it, but nothing in it acts on the terminal.
    return `wrote ${countOf(count, total, unit)} to ${terminalSafe(output)} (${sent}, ${clock(seconds)})`;
  }
  return terminal ? countOf(count, count === 0 ? total : undefined, unit) : undefined;
}
