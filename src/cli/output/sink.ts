/**
 * Where a command's records go: standard output, or the `--output` file. Writes wait for the
 * stream to drain, so a long walk holds at most a page or so in memory however slow the reader.
 */
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

export interface Sink {
  /** Bytes written so far (after a resume: counted from the start of the file). */
  readonly bytes: number;
  /** Whether the records go to a terminal: table by default, columns fit its width. */
  readonly isTerminal: boolean;
  /** The terminal's width in columns; `undefined` when not a terminal. */
  readonly columns: number | undefined;
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

/** Standard output, waiting for 'drain' when its buffer is full. */
export function stdoutSink(stream: NodeJS.WriteStream = process.stdout): Sink {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    isTerminal: stream.isTTY === true,
    columns: stream.isTTY ? stream.columns : undefined,
    async write(text) {
      if (text === '') return;
      bytes += Buffer.byteLength(text);
      if (!stream.write(text)) await once(stream, 'drain');
    },
    async close() {},
  };
}

/**
 * The `--output` file, cut back to `from` bytes first: what a stopped run wrote after its last
 * checkpoint (a record half-written at `kill -9` included) is dropped and written again.
 */
export async function fileSink(path: string, from: number): Promise<Sink> {
  let handle: FileHandle;
  if (from > 0) {
    handle = await open(path, 'r+');
    await handle.truncate(from);
  } else {
    handle = await open(path, 'w');
  }
  let bytes = from;
  return {
    get bytes() {
      return bytes;
    },
    isTerminal: false,
    columns: undefined,
    async write(text) {
      if (text === '') return;
      // Positioned writes: the file ends at `bytes` whatever a previous run left past it. Written
      // at once rather than through the thread pool: a page is a few kilobytes, and handing each
      // one to a thread and back cost a long harvest more than the writes themselves.
      const length = Buffer.byteLength(text);
      let done = writeSync(handle.fd, text, bytes, 'utf8');
      if (done < length) {
        // A short write (rare: a signal, a full disk about to fail): the rest from the bytes.
        const buffer = Buffer.from(text);
        while (done < length) done += writeSync(handle.fd, buffer, done, length - done, bytes + done);
      }
      bytes += length;
    },
    async close() {
      await handle.close();
    },
  };
}
