/** Runs the commands that answer in one response: one record, or one whole list. */
import type { Context } from './context.js';
import { openSink } from './context.js';
import type { OutputOptions } from './options.js';
import type { Row } from './output/cells.js';
import { chooseFormat, formatRecord, listWriter } from './output/formats.js';

/** Writes the list `fetch` resolves to. */
export async function runList(
  context: Context,
  options: OutputOptions,
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
}

export type { Context };
