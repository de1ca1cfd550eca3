/**
 * `--output` that is no regular file: a FIFO (as `>(gzip > out.gz)` gives), a device. Written in order
 * as a stream, with no checkpoint beside it, and a FIFO no one reads never holds the process past Ctrl-C.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { exitCodes, InterruptedError, OutputFileError } from '../../../src/cli/errors.js';
import { streamKind, streamSink } from '../../../src/cli/output/stream-sink.js';
import { afterThisTest } from '../../helpers/cleanup.js';
import { useMockServer } from '../../support.js';
import { jsonLines, run, start } from '../helpers.js';
import { fifo, scratch } from '../resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 60, authors: 5 } });
const never = new AbortController().signal;

/** A process reading `path` through `command` (`cat` by default): what it read, once it ends. */
function reader(path: string, command = 'cat "$1"') {
  const child = spawn('sh', ['-c', command, 'sh', path], { stdio: ['ignore', 'pipe', 'ignore'] });
  afterThisTest(() => child.kill('SIGKILL'));
  return text(child.stdout);
}

describe('the kind of --output', () => {
  it('a FIFO, a device, or a file (there or not)', async () => {
    const folder = scratch();
    expect(await streamKind(fifo())).toBe('fifo');
    expect(await streamKind('/dev/null')).toBe('device');
    expect(await streamKind(join(folder, 'not-there.csv'))).toBeUndefined();
    expect(await streamKind(join(folder))).toBeUndefined();
  });
});

describe('a FIFO as --output', () => {
  it('is written in order, waiting for its reader, more than a pipe holds', async () => {
    const path = fifo();
    const read = reader(path);
    const sink = await streamSink(path, 'fifo', never);
    const chunks = ['é', Buffer.from('bytes'), `${'x'.repeat(300_000)}\n`, 'end\n'];
    for (const chunk of chunks) await sink.write(chunk);
    await sink.close();
    expect(await read).toBe(chunks.join(''));
    expect(sink.bytes).toBe(Buffer.byteLength(chunks.join('')));
  });

  it('that no one reads: Ctrl-C ends the wait for a reader with its reason', async () => {
    const interrupt = new AbortController();
    const opening = streamSink(fifo(), 'fifo', interrupt.signal);
    const reason = new InterruptedError('interrupted');
    interrupt.abort(reason);
    await expect(opening).rejects.toBe(reason);
  });

  it('whose reader goes away: an OutputFileError naming the file', async () => {
    const path = fifo();
    void reader(path, 'head -c 10 "$1"');
    const sink = await streamSink(path, 'fifo', never);
    const writing = async () => {
      for (let n = 0; n < 1000; n++) await sink.write('y'.repeat(64 * 1024));
    };
    await expect(writing()).rejects.toThrow(OutputFileError);
    await expect(writing()).rejects.toThrow(`cannot write --output ${path}: `);
    await sink.close();
  });

  it('a walk writes into it with no checkpoint beside it, and --resume into it is refused', async () => {
    const path = fifo();
    const read = reader(path);
    const search = ['papers', 'search', '--all', '--format', 'jsonl', '-o', path];
    const result = await run(search, { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(await read)).toHaveLength(60);
    expect(existsSync(`${path}.checkpoint.json`)).toBe(false);
    const resumed = await run([...search, '--resume'], { url: mock.server.url });
    expect(resumed.code).toBe(exitCodes.usage);
    expect(resumed.stderr).toContain(
      `--resume: ${path} is a pipe or a device: no run can be resumed into it`,
    );
  });
});

describe('a device as --output', () => {
  it('/dev/null takes a walk, and no checkpoint is left in /dev', async () => {
    const checkpoint = '/dev/null.checkpoint.json';
    afterThisTest(() => execFileSync('rm', ['-f', checkpoint]));
    const result = await run(['papers', 'search', '--all', '-o', '/dev/null'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^wrote 60 of 60 papers to \/dev\/null/);
    expect(existsSync(checkpoint)).toBe(false);
  });
});

describe('the bin writing to a FIFO no one reads', { timeout: 60_000 }, () => {
  it('exits 130 at the first Ctrl-C, without a second', async () => {
    const path = fifo();
    const bin = start(['journals', 'list', '-o', path], { url: mock.server.url });
    // The list is fetched before its file is opened: once it is asked for, the open is near.
    while (mock.api.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    bin.child.kill('SIGINT');
    const exit = await bin.exited;
    expect(exit.code, exit.stderr).toBe(130);
    expect(exit.stderr).toContain('stopped by Ctrl-C');
  });
});
