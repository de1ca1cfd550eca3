/**
 * DOIs as people have them: `https://doi.org/10.…`, `http://dx.doi.org/10.…`, `doi:10.…` or bare; a
 * list of one a line, a column of a table or a field of JSON records (doi-columns.ts), so the tool's
 * own output feeds `get-many`. The list is read from a file, a pipe or FIFO, a terminal, or standard
 * input, all bounded alike, in UTF-8 or (with its byte order mark) UTF-16.
 */
import { close as closeFd, constants, createReadStream, fstat, open } from 'node:fs';
import { Socket } from 'node:net';
import { addAbortSignal, type Readable } from 'node:stream';
import { isatty, ReadStream } from 'node:tty';
import { promisify } from 'node:util';
import { cellsOf, kindOf } from './doi-columns.js';
import { normaliseDoi } from './doi-forms.js';
import { UsageError } from './errors.js';
import { databaseOf } from './output/database-files.js';
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
  return inputText(Buffer.concat(chunks, bytes), input);
}

/** The first bytes of a zip archive: an .xlsx or .ods spreadsheet is one. */
const zipMagic = Buffer.from('PK\x03\x04', 'latin1');

/**
 * The text of an input's bytes: UTF-8, or UTF-16 when its byte order mark says so (Excel's "Unicode
 * text"). A spreadsheet, a Parquet file or a SQLite database holds no text to read DOIs from: refused,
 * saying what to give instead.
 */
function inputText(bytes: Buffer, input: string): string {
  const even = (from: Buffer) => Buffer.from(from.subarray(0, from.length - (from.length % 2)));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return even(bytes.subarray(2)).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return even(bytes.subarray(2)).swap16().toString('utf16le');
  const binary = bytes.subarray(0, 4).equals(zipMagic)
    ? 'a zip archive (an .xlsx or .ods spreadsheet)'
    : databaseOf(bytes)?.what;
  if (binary !== undefined) {
    const name = input === '-' ? '- (standard input)' : input;
    throw new UsageError(
      terminalSafe(
        `--input ${name} is ${binary}, not text: give the DOIs as csv, tsv, JSON or one a line (save a sheet as CSV)`,
      ),
    );
  }
  return bytes.toString('utf8');
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
    // A terminal (`--input /dev/stdin` or `/dev/tty` typed into) waits for lines: read as standard input is.
    if (isatty(fd)) return new ReadStream(fd);
    return createReadStream(path, { fd });
  } catch (error) {
    closeFd(fd, () => {});
    throw error;
  }
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
    // R's `write.csv` writes a missing value as NA, where pandas leaves the cell empty.
    if (doi === '' || doi === 'NA') blank += 1;
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
  // A byte order mark is no part of the first cell, whatever the kind: an editor saved the file with one.
  const body = text.replace(/^\uFEFF/, '');
  const kind = kindOf(name, body);
  return doiListOf(cellsOf(body, name, kind, column), kind === 'lines' ? 'line' : 'entry');
}
