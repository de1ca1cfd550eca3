/**
 * How a command's records are shown beyond their format: the fields asked for, the header of an empty
 * list, formula-safe cells, escapes on a terminal, colour. One place, used by every way of writing.
 */
import { type ColorChoice, palette, useColor } from './color.js';
import type { IO } from './io.js';
import type { OutputOptions } from './options.js';
import { type Format, tablesFor } from './output/formats.js';
import type { Sink } from './output/sink.js';
import type { WriterOptions } from './output/writer-types.js';

/** What decides the view besides the command's own options. */
export interface ViewFacts {
  io: IO;
  /** `--color`. */
  color?: ColorChoice | undefined;
  /** The fields of the command's records: the header of an empty csv or tsv. */
  columns?: readonly string[] | undefined;
  /** The format chosen: a table loads the table's code. */
  format: Format;
}

/** The writer options for `options` writing to `sink`. */
export async function writerOptions(
  facts: ViewFacts,
  options: OutputOptions,
  sink: Sink,
): Promise<WriterOptions> {
  // Never in a file; in a pipe only when asked (--color always, FORCE_COLOR).
  const toStdout = options.output === undefined;
  const terminal = sink.isTerminal && facts.io.colors;
  const color = toStdout && useColor({ choice: facts.color, env: facts.io.env, terminal });
  return {
    fields: options.fields,
    columns: facts.columns,
    rawCells: options.rawCells,
    terminal: sink.isTerminal,
    paint: palette(color).header,
    tables: await tablesFor(facts.format),
  };
}
