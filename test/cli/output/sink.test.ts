import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputFileError } from '../../../src/cli/errors.js';
import { fileChunkBytes, fileSink } from '../../../src/cli/output/sink.js';
import { MOCK_DOIS } from '../../../src/testing/index.js';
import { useMockServer } from '../../support.js';
import { run } from '../helpers.js';
import { scratch } from '../resume.js';
import { clipboardName, clipboardNameShown, expectNameEscaped } from './hostile.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 20, authors: 5 } });

describe('the --output file', () => {
  it('is cut back to where the run resumes, and counts the bytes it holds, not the characters', async () => {
    const file = join(scratch(), 'out.jsonl');
    writeFileSync(file, 'kept\nhalf-writ');
    const sink = await fileSink(file, 5);
    // Two bytes, four, three (a lone surrogate is written as U+FFFD, as every write of text does).
    const texts = ['é', '😀', '\ud800', `${'x'.repeat(70_000)}\n`];
    for (const text of texts) await sink.write(text);
    await sink.write('');
    await sink.close();
    const written = readFileSync(file);
    expect(written.toString()).toBe(`kept\n${texts.join('').replace('\ud800', '\ufffd')}`);
    expect(sink.bytes).toBe(written.length);
  });

  it('gathers text into chunks, and flush() puts what it holds into the file at once', async () => {
    const file = join(scratch(), 'out.jsonl');
    const sink = await fileSink(file, 0);
    const line = `${'é'.repeat(99)}\n`;
    await sink.write(line);
    // Counted at once, written later: a checkpoint may only be saved after a flush.
    expect(sink.bytes).toBe(199);
    expect(readFileSync(file).length).toBe(0);
    sink.flush();
    expect(readFileSync(file, 'utf8')).toBe(line);
    // A chunk goes to the disk without a flush: memory stays bounded however long the walk.
    const chunk = Math.ceil(fileChunkBytes / 199);
    for (let i = 0; i < 2 * chunk; i++) await sink.write(line);
    expect(readFileSync(file).length).toBeGreaterThanOrEqual(199 * (chunk + 1));
    await sink.close();
    expect(readFileSync(file, 'utf8')).toBe(line.repeat(2 * chunk + 1));
  });

  it('a write that fails fails the flush, every later write and close: nothing is taken as written', async () => {
    // A full disk, as Linux offers one: every write fails with ENOSPC.
    const sink = await fileSink('/dev/full', 0);
    await sink.write('a checkpoint must not count this\n');
    expect(() => sink.flush()).toThrow(/ENOSPC/);
    await expect(sink.write('x'.repeat(fileChunkBytes))).rejects.toThrow(/ENOSPC/);
    await expect(sink.close()).rejects.toThrow(/ENOSPC/);
  });
});

describe('an --output file on a full disk', () => {
  /** A file named `name` in a scratch folder that is /dev/full: every write fails with ENOSPC. */
  const fullFile = (name: string) => {
    const file = join(scratch(), name);
    symlinkSync('/dev/full', file);
    return file;
  };
  const failure = (file: string) => `cannot write --output ${file}: ENOSPC: no space left on device, write`;

  it('fails a write of text or of bytes with an OutputFileError naming the file escaped', async () => {
    const file = fullFile(clipboardName);
    const shown = file.replace(clipboardName, clipboardNameShown);
    const sink = await fileSink(file, 0);
    await sink.write('a line\n');
    const error = (() => {
      try {
        sink.flush();
      } catch (thrown) {
        return thrown as Error & { cause?: NodeJS.ErrnoException };
      }
    })();
    expect(error).toBeInstanceOf(OutputFileError);
    expect(error?.message).toBe(failure(shown));
    expect(error?.cause?.code).toBe('ENOSPC');
    expectNameEscaped(error?.message ?? '');
    const bytes = await fileSink(file, 0);
    await expect(bytes.write(new Uint8Array(8))).rejects.toThrow(new OutputFileError(failure(shown)));
    await expect(sink.close()).rejects.toThrow(new OutputFileError(failure(shown)));
    await bytes.close();
  });

  it.each(['jsonl', 'parquet'])('ends a harvest to %s with its one line, exit 1', async (format) => {
    const file = fullFile(`papers.${format}`);
    const result = await run(['papers', 'search', '--all', '-o', file], { url: mock.server.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: OutputFileError: ${failure(file)}\n`);
  });
});

describe('an --output file that cannot be written', () => {
  it("is a usage error naming it escaped, in Node's words too", async () => {
    const file = join(scratch(), clipboardName, 'out.jsonl');
    const result = await run(['papers', 'get', MOCK_DOIS[0]!, '--output', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: cannot write --output .*: ENOENT: no such file or directory, open '.*'\n$/,
    );
    // Once in the message, once in Node's words.
    expect(result.stderr.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped(result.stderr);
  });
});

describe('a terminal that reports no width (0 columns, as under script(1))', () => {
  it('gets the whole table, its header included, no column hidden', async () => {
    const result = await run(['journals', 'list', '--limit', '2'], {
      url: mock.server.url,
      terminal: { stdout: true, stderr: true, columns: 0 },
    });
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header?.split(/\s+/)).toEqual([
      'ID',
      'NAME',
      'ISSN',
      'METRIC_SCORE',
      'QUARTILE',
      'COUNTRY_ID',
      'FIELD_ID',
      'TOTAL_PAPERS',
      'TOTAL_CITES',
    ]);
    expect(rows).toHaveLength(2);
    expect(result.stdout).not.toContain('…');
    expect(result.stderr).not.toContain('hidden');
  });
});
