/**
 * Records piped to another program (`| less`, `| head`) go to one that may share the terminal: the
 * progress line is not drawn over its screen, nor left among its lines. With `-o`, it is drawn.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPipe } from '../../src/cli/io.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import { testIO } from './helpers.js';
import { fifo, scratch } from './resume.js';

const open: number[] = [];
afterEach(() => {
  for (const fd of open.splice(0)) closeSync(fd);
});

/** A descriptor of a FIFO, opened for reading and writing so that no reader is waited for. */
function pipeDescriptor(): number {
  const fd = openSync(fifo(), 'r+');
  open.push(fd);
  return fd;
}

describe('standard output piped to another program', () => {
  it('isPipe: a FIFO is one; a file, a terminal and a stream without a descriptor are not', () => {
    const file = openSync(join(scratch(), 'out.txt'), 'w');
    open.push(file);
    expect(isPipe({ fd: pipeDescriptor() } as never)).toBe(true);
    expect(isPipe({ fd: file } as never)).toBe(false);
    expect(isPipe({ fd: pipeDescriptor(), isTTY: true } as never)).toBe(false);
    expect(isPipe({} as never)).toBe(false);
  });

  it('draws no progress line while the records go to the pipe; with -o it does', async () => {
    const drawn = async (args: string[]) => {
      const { io, stderr } = testIO({
        terminal: { stderr: true },
        now: (() => {
          let now = 0;
          return () => (now += 1000);
        })(),
      });
      Object.assign(io.stdout, { fd: pipeDescriptor() });
      const code = await runCommandLine(
        ['--mock', 'papers', 'search', 'climate', '--limit', '3', ...args],
        io,
      );
      expect(code, stderr()).toBe(0);
      return /3 of 3 papers · 1 request/.test(stderr());
    };
    expect(await drawn(['--format', 'jsonl'])).toBe(false);
    expect(await drawn(['-o', join(scratch(), 'papers.jsonl')])).toBe(true);
  });

  it('draws none on a dumb terminal (TERM=dumb), which shows its erase as garbage', async () => {
    const { io, stderr } = testIO({ terminal: { stderr: true }, env: { TERM: 'dumb' } });
    const code = await runCommandLine(
      ['--mock', 'papers', 'search', 'climate', '--limit', '3', '-o', join(scratch(), 'papers.jsonl')],
      io,
    );
    expect(code, stderr()).toBe(0);
    expect(stderr()).not.toContain('\u001b[2K');
    expect(stderr()).toMatch(/^wrote 3 of /);
  });
});
