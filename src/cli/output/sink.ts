/**
 * Where a command's records go: standard output, or the `--output` file. Writes to standard output
 * wait for it to drain and the file's are gathered into chunks, so a long walk holds at most a page
 * or a chunk in memory however slow the reader.
 */
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { cannotWrite, OutputFileError } from '../errors.js';
import type { Chunk } from './writer-types.js';

export interface Sink {
  /** Bytes written so far (after a resume: counted from the start of the file). */
  readonly bytes: number;
  /** Whether the records go to a terminal: table by default, columns fit its width. */
  readonly isTerminal: boolean;
  /** The terminal's width in columns; `undefined` when not a terminal, or of no known width. */
  readonly columns: number | undefined;
  /** Appends text, or the bytes of a binary format. */
  write(chunk: Chunk): Promise<void>;
  /** Writes now what `write` has gathered (the file sink gathers; standard output never waits). */
  flush(): void;
  /** Flushes, then closes. */
  close(): Promise<void>;
}

/** `sink` with its `write` or `close` done another way; its byte count and terminal facts are its own. */
export function wrapSink(sink: Sink, { write, close }: Partial<Pick<Sink, 'write' | 'close'>>): Sink {
  return {
    get bytes() {
      return sink.bytes;
    },
    isTerminal: sink.isTerminal,
    columns: sink.columns,
    write: write ?? ((chunk) => sink.write(chunk)),
    flush: () => sink.flush(),
    close: close ?? (() => sink.close()),
  };
}

/**
 * Standard output, or another stream (a FIFO's), waiting for 'drain' when its buffer is full; `signal`
 * ends that wait. Closing it is the stream owner's.
 */
export function stdoutSink(stream: NodeJS.WriteStream = process.stdout, signal?: AbortSignal): Sink {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    isTerminal: stream.isTTY === true,
    // A terminal that reports no size (0 columns: script(1), a container's tty) has no known width.
    columns: stream.isTTY && stream.columns > 0 ? stream.columns : undefined,
    async write(text) {
      if (text.length === 0) return;
      bytes += typeof text === 'string' ? Buffer.byteLength(text) : text.length;
      if (!stream.write(text)) await once(stream, 'drain', { signal });
    },
    flush() {},
    async close() {},
  };
}

/** A sink that writes nothing: a SQLite database is written by its writer, never as a stream. */
export function nullSink(): Sink {
  return {
    bytes: 0,
    isTerminal: false,
    columns: undefined,
    async write() {},
    flush() {},
    async close() {},
  };
}

/**
 * How much text the file sink gathers before it writes: a system call per page costs a long harvest
 * more than writing its bytes does.
 */
export const fileChunkBytes = 64 * 1024;

/**
 * `work`, a write to the `--output` file at `path`; Node's failure (a full disk: `ENOSPC`) as the
 * command's own error naming the file, escaped, as its failure to open it is. Node's stays the cause.
 */
function writing<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw cannotWrite(OutputFileError, '--output', path, error);
  }
}

/**
 * The `--output` file, cut back to `from` bytes first: what a stopped run wrote after its last
 * checkpoint (a record half-written at `kill -9` included) is dropped and written again. Text is
 * gathered up to `fileChunkBytes` and written in one go; `flush()` writes it at once, which the
 * harvest does before each checkpoint, so a checkpoint never counts bytes the file does not hold.
 */
export async function fileSink(path: string, from: number): Promise<Sink> {
  const handle = await openCutTo(path, from);
  let bytes = from;
  /** Bytes in the file; `pending` holds the rest of `bytes`. */
  let written = from;
  let pending = '';
  const flushPending = () => {
    if (pending === '') return;
    // Positioned writes: the file ends at `written` whatever a previous run left past it. Written
    // at once rather than through the thread pool, whose round trip takes longer than a write this
    // size. A write that fails keeps `pending`, so a later flush writes it again at the same place.
    const done = writeSync(handle.fd, pending, written, 'utf8');
    // A short write (rare: a signal, a full disk about to fail): the rest from the bytes.
    if (done < bytes - written) writeAllAt(handle.fd, Buffer.from(pending), written, done);
    written = bytes;
    pending = '';
  };
  const flush = () => writing(path, flushPending);
  return {
    get bytes() {
      return bytes;
    },
    isTerminal: false,
    columns: undefined,
    async write(chunk) {
      if (chunk.length === 0) return;
      if (typeof chunk !== 'string') {
        // Bytes (a Parquet row group) are written at once, after the text gathered before them.
        flush();
        writing(path, () => writeAllAt(handle.fd, chunk, written));
        bytes += chunk.length;
        written = bytes;
        return;
      }
      bytes += Buffer.byteLength(chunk);
      pending += chunk;
      if (bytes - written >= fileChunkBytes) flush();
    },
    flush,
    async close() {
      try {
        flush();
      } finally {
        await handle.close();
      }
    },
  };
}

/** `path` opened to write, cut back to `from` bytes (emptied when `from` is 0). */
async function openCutTo(path: string, from: number): Promise<FileHandle> {
  if (from > 0) {
    const handle = await open(path, 'r+');
    await handle.truncate(from);
    return handle;
  }
  return open(path, 'w');
}

/** Writes `buffer` from its byte `done` on at `position + done` of `fd`, however short each write falls. */
function writeAllAt(fd: number, buffer: Uint8Array, position: number, done = 0): void {
  while (done < buffer.length) done += writeSync(fd, buffer, done, buffer.length - done, position + done);
}
