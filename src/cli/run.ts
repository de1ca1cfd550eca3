/** Runs the commands that answer in one response: one record, or one whole list. */
import type { Context } from './context.js';
import { openSink } from './context.js';
import { sayLastWord } from './last-word.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { chooseFormat, formatRecord, listWriter } from './output/formats.js';

/** Writes the list `fetch` resolves to; `unit` names its records (plural) in the last word. */
export async function runList(
  context: Context,
  options: OutputOptions,
  unit: string,
  fetch: () => Promise<readonly Row[]>,
): Promise<void> {
  const records = await fetch();
  const sink = await openSink(context.io, options.output);
  try {
    const writer = listWriter(chooseFormat(options.format, sink.isTerminal, true), sink.columns);
    await sink.write(writer.rows(records) + writer.end());
  } finally {
    await sink.close();
  }
  sayLastWord(context, { count: records.length, unit, output: options.output });
}

/**
 * Writes the record `fetch` resolves to. `table` replaces the default `field  value` table; it is
 * told whether the format was chosen for a terminal (`--format` not given) and may then draw more.
 */
export async function runRecord(
  context: Context,
  options: OutputOptions,
  fetch: () => Promise<Row>,
  table?: (record: Row, columns: number | undefined, chosen: boolean) => string,
): Promise<void> {
  const record = await fetch();
  const sink = await openSink(context.io, options.output);
  try {
    const format = chooseFormat(options.format, sink.isTerminal, false);
    if (format === 'table' && table)
      await sink.write(table(record, sink.columns, options.format === undefined));
    else await sink.write(formatRecord(format, record, sink.columns));
  } finally {
    await sink.close();
  }
  // One record on a terminal needs no count; written to a file, it gets its line like a list.
  if (options.output !== undefined)
    sayLastWord(context, { count: 1, unit: 'record', output: options.output });
}

export type { Context };
