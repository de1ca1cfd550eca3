/**
 * DOIs as people have them: `https://doi.org/10.…`, `http://dx.doi.org/10.…`, `doi:10.…` or bare; a
 * list of one a line whose first line may be the header `doi`; or a column of a csv or tsv file with a
 * header, or a field of JSON lines (`--input-column`), so the tool's own output feeds `get-many`.
 * The list is read from a file, a pipe or FIFO, or standard input, all bounded alike.
 */
import { close as closeFd, constants, createReadStream, fstat, open } from 'node:fs';
import { Socket } from 'node:net';
import { addAbortSignal, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { normaliseDoi } from './doi-forms.js';
import { UsageError } from './errors.js';
import { terminalSafe } from './output/escape.js';

/**
 * The most bytes `--input` reads, from a file or standard input alike (256 MiB, millions of DOIs):
 * more is refused rather than held, and the text stays well within the longest string Node makes.
 */
export const inputMaxBytes = 256 * 1024 * 1024;

export interface InputSource {
  /** Read for `--input -`. */
  readonly stdin: NodeJS.ReadableStream;
  /** The run's Ctrl-C: reading stops at once, whatever it waits for. */
  readonly signal: AbortSignal;
  /** @default inputMaxBytes */
  readonly maxBytes?: number;
}

/**
 * The text of `--input` (`-`: standard input), read to its end. More than `maxBytes` is a usage error;
 * so is a file that cannot be read, named escaped, Node's words included. Once the signal aborts, the
 * read stops and its reason is thrown, a FIFO whose writer writes nothing included.
 */
export async function readInput(input: string, source: InputSource): Promise<string> {
  const { signal, maxBytes = inputMaxBytes } = source;
  signal.throwIfAborted();
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    const stream = input === '-' ? (source.stdin as Readable) : await openInput(input);
    // Destroyed on abort: a pipe, a FIFO or a terminal waited on ends its read at once.
    for await (const chunk of addAbortSignal(signal, stream)) {
      const buffer: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      // Leaving the loop destroys the stream: nothing past the bound is read, let alone kept.
      if (bytes > maxBytes) throw tooLarge(input, maxBytes);
      chunks.push(buffer);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof UsageError) throw error;
    throw new UsageError(terminalSafe(`cannot read --input ${input}: ${(error as Error).message}`));
  }
  return Buffer.concat(chunks, bytes).toString('utf8');
}

function tooLarge(input: string, maxBytes: number): UsageError {
  const mib = 1024 * 1024;
  const size = maxBytes % mib === 0 ? `${maxBytes / mib} MiB` : `${maxBytes} bytes`;
  const what = input === '-' ? '- (standard input)' : input;
  return new UsageError(
    terminalSafe(`--input ${what} is over ${size}, the most --input reads: split the list into parts`),
  );
}

/**
 * A stream of the file `path`. Opened without waiting for a FIFO's writer; a FIFO (or `<(command)`)
 * is then read as a pipe, on the event loop: a read left waiting in Node's thread pool would hold the
 * process's exit until the writer ended, Ctrl-C or not.
 */
async function openInput(path: string): Promise<Readable> {
  const fd = await promisify(open)(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await promisify(fstat)(fd);
    if (info.isFIFO()) return new Socket({ fd, readable: true, writable: false });
    return createReadStream(path, { fd });
  } catch (error) {
    closeFd(fd, () => {});
    throw error;
  }
}

/** The kind of a file of DOIs, from its name: a table with a header, JSON lines, or one DOI a line (`.txt`). */
function kindOf(name: string, text: string): 'csv' | 'tsv' | 'jsonl' | 'lines' {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.tsv')) return 'tsv';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.txt')) return 'lines';
  // Standard input, `<(command)` and a file of another name: its first line tells.
  const first = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  if (first.trimStart().startsWith('{')) return 'jsonl';
  if (first.includes('\t')) return 'tsv';
  if (first.includes(',')) return 'csv';
  return 'lines';
}

/** A DOI of the input, with the cell (line, field, argument) it was read from, as given. */
export interface DoiEntry {
  readonly doi: string;
  readonly input: string;
}

/** The DOIs of a list, each once, and what was skipped on the way. */
export interface DoiList {
  readonly entries: readonly DoiEntry[];
  /** Entries that held nothing (a blank line, an empty cell or argument). */
  readonly blank: number;
  /** DOIs given again (in any ASCII letter case, any resolver form): looked up once, at the first. */
  readonly repeated: number;
  /** What an entry is (`line`, `entry`, `argument`), for the words about what was skipped. */
  readonly noun: 'line' | 'entry' | 'argument';
}

/** DOIs are case-insensitive in ASCII letters (the contract's rule): the key a DOI is known by. */
export function doiKey(doi: string): string {
  return doi.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * `cells` (as given) as a list of DOIs: each normalised, blank ones counted and left out, and each DOI
 * kept once, where it first came.
 */
export function doiListOf(cells: readonly string[], noun: DoiList['noun']): DoiList {
  const seen = new Set<string>();
  const entries: DoiEntry[] = [];
  let blank = 0;
  let repeated = 0;
  for (const input of cells) {
    const doi = normaliseDoi(input);
    if (doi === '') blank += 1;
    else if (seen.has(doiKey(doi))) repeated += 1;
    else {
      seen.add(doiKey(doi));
      entries.push({ doi, input });
    }
  }
  return { entries, blank, repeated, noun };
}

/**
 * The DOIs of `text` (read from `name`, `-` for standard input), normalised, empty lines skipped. With
 * `column`, the values of that column or field; without, a one-a-line list, or the `doi` column of a
 * table that has one.
 */
export function readDoiList(text: string, name: string, column?: string): string[] {
  return readDois(text, name, column).entries.map((entry) => entry.doi);
}

/** {@link readDoiList}'s DOIs, each once, with the cells they came from and what was skipped. */
export function readDois(text: string, name: string, column?: string): DoiList {
  const kind = kindOf(name, text);
  return doiListOf(cellsOf(text, name, kind, column), kind === 'lines' ? 'line' : 'entry');
}

/** The lines of `text`: the line break that ends the last line starts no line of its own. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
}

/** The cells of `text` that hold DOIs, as given (blank ones included). */
function cellsOf(text: string, name: string, kind: ReturnType<typeof kindOf>, column?: string): string[] {
  const wanted = column ?? (kind === 'lines' ? undefined : 'doi');
  let values: string[];
  if (kind === 'lines' || wanted === undefined) {
    values = linesOf(text);
    // A first line `doi` (any case) is a header, not a DOI.
    const header = values[0]?.trim().toLowerCase();
    if (header === 'doi' || (column !== undefined && header === column.toLowerCase()))
      values = values.slice(1);
    else if (column !== undefined && values.length > 0)
      throw new UsageError(
        terminalSafe(
          `--input ${name} is a list of one DOI a line, with no column ${column}: leave --input-column out`,
        ),
      );
  } else if (kind === 'jsonl') {
    values = jsonLinesColumn(text, name, wanted);
  } else {
    values = tableColumn(text, name, wanted, kind === 'csv' ? ',' : '\t');
  }
  return values;
}

function tableColumn(text: string, name: string, column: string, delimiter: string): string[] {
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter,
      relax_column_count: true,
      // Kept, to be counted as blank entries as a list's blank lines are (those before the header go).
      skip_empty_lines: false,
      bom: true,
      // Both line ends at once: the parser otherwise takes the first row's for all, and a row
      // appended with the other would run on into the row before it, its DOI lost.
      record_delimiter: ['\r\n', '\n'],
      quote: delimiter === ',' ? '"' : false,
    });
  } catch (error) {
    // The parser's words may quote the file: escaped with its name.
    throw new UsageError(terminalSafe(`cannot read --input ${name}: ${(error as Error).message}`));
  }
  const isEmpty = (row: string[]) => row.length === 1 && row[0] === '';
  while (rows[0] !== undefined && isEmpty(rows[0])) rows.shift();
  // An empty file (a search that found nothing) holds no DOIs, whatever its column would have been.
  if (rows.length === 0) return [];
  const header = (rows[0] ?? []).map((cell) => cell.trim());
  const at = header.findIndex((cell) => cell.toLowerCase() === column.toLowerCase());
  if (at === -1) throw missingColumn(column, name, header);
  return rows.slice(1).map((row) => row[at] ?? '');
}

function jsonLinesColumn(text: string, name: string, field: string): string[] {
  const seen = new Set<string>();
  const values: string[] = [];
  let parsed = 0;
  // A byte order mark is no JSON: a file an editor saved with one is read as one without. A blank
  // line is a blank entry.
  for (const [index, line] of linesOf(text.replace(/^\uFEFF/, '')).entries()) {
    if (line.trim() === '') {
      values.push('');
      continue;
    }
    let record: unknown;
    parsed++;
    try {
      record = JSON.parse(line);
    } catch {
      throw new UsageError(`--input ${terminalSafe(name)} line ${index + 1} is not JSON`);
    }
    // A line without the field as text (null, absent, or no object at all) holds nothing: a blank entry.
    if (record === null || typeof record !== 'object') {
      values.push('');
      continue;
    }
    for (const key of Object.keys(record)) seen.add(key);
    const value = (record as Record<string, unknown>)[field];
    values.push(typeof value === 'string' ? value : '');
  }
  // Lines that are all blank (a search that found nothing) hold no DOIs, whatever their field would be.
  if (!seen.has(field) && parsed > 0) throw missingColumn(field, name, [...seen]);
  return values;
}

function missingColumn(column: string, name: string, columns: readonly string[]): UsageError {
  const has = columns.length === 0 ? 'its records have no fields' : `its columns: ${columns.join(', ')}`;
  return new UsageError(
    terminalSafe(`--input ${name} has no column ${column} (${has}); name one with --input-column`),
  );
}
