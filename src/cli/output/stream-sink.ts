/**
 * An `--output` that is no regular file: a FIFO, the pipe of `>(gzip > out.gz)` or `/dev/stdout`, a
 * device such as `/dev/null`. It is written in order as a stream, never cut back nor written at a
 * position, and no checkpoint is kept beside it: nothing can be resumed into a pipe.
 */
import { once } from 'node:events';
import { constants, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { cannotWrite, OutputFileError } from '../errors.js';
import { type Sink, stdoutSink } from './sink.js';
import type { Chunk } from './writer-types.js';

/** What `--output` names when it is no regular file; a pipe of any kind counts as a FIFO. */
export type StreamKind = 'fifo' | 'device';

/** How often a FIFO that no one reads yet is tried again. */
const readerPollMs = 100;

/** The kind of stream at `path`; `undefined` for a regular file, or for one that does not exist yet. */
export async function streamKind(path: string): Promise<StreamKind | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isFIFO()) return 'fifo';
  return info?.isCharacterDevice() ? 'device' : undefined;
}

/**
 * The sink of the stream at `path`. Writes wait for the reader ('drain'); `signal` (Ctrl-C) ends a
 * wait for a reader at once, as it ends every other wait of a command.
 */
export async function streamSink(path: string, kind: StreamKind, signal: AbortSignal): Promise<Sink> {
  const stream: Writable =
    kind === 'fifo'
      ? new Socket({ fd: await openFifo(path, signal), readable: false, writable: true })
      : (await open(path, 'w')).createWriteStream();
  let failed: unknown;
  stream.on('error', (error) => {
    failed ??= error;
  });
  /** Ctrl-C as itself; the stream's failure (the reader gone: EPIPE) as the command's, naming the file. */
  const failure = (error: unknown) => {
    if (signal.aborted) return signal.reason;
    return cannotWrite(OutputFileError, '--output', path, failed ?? error);
  };
  const settle = async (wait: Promise<unknown>) => {
    try {
      await wait;
    } catch (error) {
      throw failure(error);
    }
  };
  // Written as standard output is (no terminal: a pipe or a device has no isTTY), its failures told.
  const sink = stdoutSink(stream as NodeJS.WriteStream, signal);
  const { write } = sink;
  return Object.assign(sink, {
    async write(chunk: Chunk) {
      if (failed !== undefined) throw failure(failed);
      await settle(write(chunk));
    },
    async close() {
      try {
        if (failed === undefined && !signal.aborted) {
          const ended = new Promise<void>((resolve, reject) => {
            stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
          });
          await settle(Promise.race([ended, once(signal, 'abort')]));
        }
      } finally {
        stream.destroy();
      }
    },
  });
}

/**
 * The descriptor of the FIFO at `path`, opened to write once a reader has it open. The open does not
 * block: one left waiting in Node's thread pool would hold the process even after it calls exit.
 */
async function openFifo(path: string, signal: AbortSignal): Promise<number> {
  for (;;) {
    signal.throwIfAborted();
    try {
      return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      // ENXIO: no reader yet.
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    await sleep(readerPollMs, undefined, { signal }).catch(() => {});
  }
}
