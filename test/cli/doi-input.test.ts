import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { normaliseDoi } from '../../src/cli/doi-forms.js';
import { inputMaxBytes, readDoiList, readInput } from '../../src/cli/doi-input.js';
import { InterruptedError, UsageError } from '../../src/cli/errors.js';
import { afterThisTest } from '../helpers/cleanup.js';
import { bin, environment, run, start } from './helpers.js';
import { clipboardName, clipboardNameShown, expectNameEscaped } from './output/hostile.js';
import { fifo, scratch } from './resume.js';

describe('DOIs as people have them', () => {
  it('normalises resolver URLs and doi: prefixes', () => {
    expect(normaliseDoi('https://doi.org/10.1000/abc')).toBe('10.1000/abc');
    expect(normaliseDoi('http://dx.doi.org/10.1000/a%2Fb')).toBe('10.1000/a/b');
    expect(normaliseDoi('HTTPS://DOI.ORG/10.1/x')).toBe('10.1/x');
    expect(normaliseDoi('doi:10.1000/abc')).toBe('10.1000/abc');
    expect(normaliseDoi(' DOI: 10.1000/abc ')).toBe('10.1000/abc');
    expect(normaliseDoi('10.1000/abc')).toBe('10.1000/abc');
    // A resolver's address with www., or without its scheme (as copied from a browser's bar).
    expect(normaliseDoi('https://www.doi.org/10.1000/abc')).toBe('10.1000/abc');
    expect(normaliseDoi('doi.org/10.1000/a%2Fb')).toBe('10.1000/a/b');
    expect(normaliseDoi('dx.doi.org/10.1000/abc')).toBe('10.1000/abc');
  });

  it("leaves a resolver URL's query and fragment out (a DOI's own ? and # are encoded in a URL)", () => {
    expect(normaliseDoi('https://doi.org/10.1000/abc/def?utm_source=x')).toBe('10.1000/abc/def');
    expect(normaliseDoi('https://doi.org/10.1000/abc#citation')).toBe('10.1000/abc');
    expect(normaliseDoi('https://doi.org/10.1000/a%3Fb%23c')).toBe('10.1000/a?b#c');
    // A doi: prefix is no URL: what follows it is the DOI, whole.
    expect(normaliseDoi('doi:10.1000/a?b')).toBe('10.1000/a?b');
  });

  it('reads one a line, a first line `doi` being a header', () => {
    expect(readDoiList('DOI\n10.1/a\n\nhttps://doi.org/10.1/b\r\n', 'dois.txt')).toEqual([
      '10.1/a',
      '10.1/b',
    ]);
    expect(readDoiList('10.1/a\n10.1/b\n', '-')).toEqual(['10.1/a', '10.1/b']);
  });

  it("reads the tool's own csv, tsv and jsonl: the doi column by default, or --input-column", () => {
    const csv = 'id,title,doi\r\n1,"Reefs, warm",10.1/a\r\n2,"Say ""hi""",doi:10.1/b\r\n';
    expect(readDoiList(csv, 'reefs.csv')).toEqual(['10.1/a', '10.1/b']);
    expect(readDoiList('id\tDOI\n1\t10.1/a\n', 'x.tsv')).toEqual(['10.1/a']);
    expect(
      readDoiList('{"id":1,"doi":"10.1/a"}\n{"id":2,"ref":"10.1/c","doi":"10.1/b"}\n', 'p.jsonl', 'ref'),
    ).toEqual(['10.1/c']);
    // Standard input: told by its first line.
    expect(readDoiList('id,doi\n1,10.1/a\n', '-')).toEqual(['10.1/a']);
    expect(readDoiList('{"doi":"10.1/a"}\n', '-')).toEqual(['10.1/a']);
  });

  it('reads a .txt file as one DOI a line, whatever its first line holds', () => {
    // A comma or a tab belongs to the DOI: SICI DOIs hold such characters.
    expect(readDoiList('10.1002/(SICI)1,2\n10.1/b\n', 'dois.txt')).toEqual(['10.1002/(SICI)1,2', '10.1/b']);
    expect(readDoiList('10.1/a\tx\n', 'DOIS.TXT')).toEqual(['10.1/a\tx']);
  });

  it('reads a file an editor saved with a byte order mark, whatever its kind', () => {
    const bom = '\uFEFF';
    expect(readDoiList(`${bom}{"doi":"10.1/a"}\n{"doi":"10.1/b"}\n`, 'p.jsonl')).toEqual([
      '10.1/a',
      '10.1/b',
    ]);
    expect(readDoiList(`${bom}{"doi":"10.1/a"}\n`, '-')).toEqual(['10.1/a']);
    expect(readDoiList(`${bom}doi,title\n10.1/a,A\n`, 'x.csv')).toEqual(['10.1/a']);
    expect(readDoiList(`${bom}10.1/a\n`, 'dois.txt')).toEqual(['10.1/a']);
  });

  it('reads a csv or tsv whose rows end in CRLF and LF alike (rows appended by another tool)', () => {
    const csv = 'doi,title\r\n10.1/a,A\r\n10.1/b,B\n10.1/c,"C, quoted\r\nover two lines"\n10.1/d,D\r\n';
    expect(readDoiList(csv, 'mixed.csv')).toEqual(['10.1/a', '10.1/b', '10.1/c', '10.1/d']);
    expect(readDoiList('title\tdoi\nA\t10.1/a\r\nB\t10.1/b\n', 'mixed.tsv')).toEqual(['10.1/a', '10.1/b']);
  });

  it('an input with nothing in it holds no DOIs (a search that found nothing), whatever its column', () => {
    expect(readDoiList('doi,title\n', 'a.csv')).toEqual([]);
    expect(readDoiList('', 'a.jsonl')).toEqual([]);
    expect(readDoiList('\n\n', 'a.jsonl', 'doi')).toEqual([]);
    expect(readDoiList('', 'a.txt', 'doi')).toEqual([]);
  });

  it('get-many says so of the file given', async () => {
    const file = join(scratch(), 'found-nothing.csv');
    writeFileSync(file, 'doi,title\n');
    const result = await run(['--mock', 'papers', 'get-many', '--input', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: --input ${file} holds no DOIs\n`);
  });

  it('an --input-column a list of one DOI a line has not, or records without fields: said as they are', () => {
    expect(() => readDoiList('10.1000/abc\n', 'a.txt', 'doi')).toThrow(
      '--input a.txt is a list of one DOI a line, with no column doi: leave --input-column out',
    );
    expect(() => readDoiList('{}\n{}\n', 'a.jsonl')).toThrow(
      '--input a.jsonl has no column doi (its records have no fields); name one with --input-column',
    );
  });

  it('a missing column is a usage error naming the columns there are', () => {
    expect(() => readDoiList('id,title\n1,x\n', 'a.csv')).toThrow(
      '--input a.csv has no column doi (its columns: id, title); name one with --input-column',
    );
    expect(() => readDoiList('{"id":1}\n', 'a.jsonl', 'ref')).toThrow(/no column ref \(its columns: id\)/);
    expect(() => readDoiList('10.1/a\n', 'a.txt', 'ref')).toThrow(/list of one DOI a line/);
    expect(readDoiList('ref\n10.1/a\n', 'a.txt', 'ref')).toEqual(['10.1/a']);
  });
});

/**
 * A writer that opens `path` and then writes `text` after `holdMs` (forever silent without `text`):
 * resolves once its open has returned, that is, once a reader has the FIFO open too.
 */
async function writer(path: string, text = '', holdMs = 60_000) {
  const child = spawn(
    'sh',
    ['-c', 'exec 3>"$1"; echo open; sleep "$2"; printf %s "$3" >&3', 'sh', path, String(holdMs / 1000), text],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  afterThisTest(() => child.kill('SIGKILL'));
  await once(child.stdout, 'data');
  return child;
}

/** Standard input that never ends: `chunk` again and again, counting what it was asked for. */
function endless(chunk: Buffer) {
  const state = { bytes: 0, destroyed: false };
  const stream = new Readable({
    read() {
      state.bytes += chunk.length;
      this.push(chunk);
    },
    destroy(error, callback) {
      state.destroyed = true;
      callback(error);
    },
  });
  return { stream, state };
}

const never = new AbortController().signal;

/** The resident memory of process `pid`, from Linux's /proc (0 once it has gone). */
function residentBytes(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kib ?? 0) * 1024;
  } catch {
    return 0;
  }
}

describe('reading --input', () => {
  it('bounds standard input: a usage error at the bound, the stream destroyed, no more read', async () => {
    const { stream, state } = endless(Buffer.alloc(1000, 0x61));
    const reading = readInput('-', { stdin: stream, signal: never, maxBytes: 64_000 });
    await expect(reading).rejects.toThrow(
      new UsageError(
        '--input - (standard input) is over 64000 bytes, the most --input reads: split the list into parts',
      ),
    );
    expect(state.destroyed).toBe(true);
    // What was read past the bound is at most the stream's own buffer ahead of the reader.
    expect(state.bytes).toBeLessThanOrEqual(64_000 + stream.readableHighWaterMark + 1000);
  });

  it('bounds a file alike, the bound itself allowed', async () => {
    const folder = scratch();
    writeFileSync(join(folder, 'at.txt'), 'a'.repeat(4096));
    writeFileSync(join(folder, 'over.txt'), 'a'.repeat(4097));
    const source = { stdin: Readable.from([]), signal: never, maxBytes: 4096 };
    expect(await readInput(join(folder, 'at.txt'), source)).toHaveLength(4096);
    await expect(readInput(join(folder, 'over.txt'), source)).rejects.toThrow(/over\.txt is over 4096 bytes/);
  });

  it('docs/cli.md states the bound the code holds', () => {
    const docs = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    expect(docs).toContain(`\`--input\` reads at most **${inputMaxBytes / 1024 ** 2} MiB**`);
  });

  it("a file it cannot read: Node's words, which name it, escaped with the rest", async () => {
    const missing = join(scratch(), clipboardName);
    const error = await readInput(missing, { stdin: Readable.from([]), signal: never }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(
      /^cannot read --input .*: ENOENT: no such file or directory, open '.*'$/,
    );
    // Both the name and Node's text quoting it.
    expect((error as Error).message.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped((error as Error).message);
  });

  it('a FIFO whose writer writes nothing: Ctrl-C ends the read at once with its reason', async () => {
    const path = fifo('dois.fifo');
    const interrupt = new AbortController();
    const reading = readInput(path, { stdin: Readable.from([]), signal: interrupt.signal });
    await writer(path);
    const reason = new InterruptedError('interrupted');
    interrupt.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });

  it('a FIFO with no writer yet waits for one, then reads what it writes', async () => {
    const path = fifo('dois.fifo');
    const reading = readInput(path, { stdin: Readable.from([]), signal: never });
    await writer(path, '10.1/a\n10.1/b\n', 200);
    expect(await reading).toBe('10.1/a\n10.1/b\n');
  });
});

describe('the bin reading --input', { timeout: 60_000 }, () => {
  it('from a FIFO whose writer stays open: Ctrl-C exits 130 promptly', async () => {
    const path = fifo('dois.fifo');
    const bin = start(['--mock', 'papers', 'get-many', '--input', path]);
    // The writer's open returns once the bin has the FIFO open: the bin is waiting on its read.
    const held = await writer(path);
    bin.child.kill('SIGINT');
    const exit = await bin.exited;
    expect(exit.code, exit.stderr).toBe(130);
    // Out while the writer still holds the FIFO open (for a minute): a read left in Node's thread pool
    // held the exit until the writer ended.
    expect(held.exitCode).toBeNull();
  });

  it('from standard input that never ends (/dev/zero through a pipe): exit 2 at the bound, memory bounded', async () => {
    const child = spawn(process.execPath, [bin, '--mock', 'papers', 'get-many', '--input', '-'], {
      env: environment({}),
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const zeros = createReadStream('/dev/zero');
    afterThisTest(() => {
      zeros.destroy();
      child.kill('SIGKILL');
    });
    // The bin's reading stops; the pipe's then fails, which ends the stream of zeros.
    child.stdin.on('error', () => zeros.destroy());
    zeros.pipe(child.stdin);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    // Its memory, watched while it reads: a bin that kept reading is stopped before it holds the machine's.
    let peak = 0;
    const watch = setInterval(() => {
      peak = Math.max(peak, residentBytes(child.pid!));
      if (peak > 1024 ** 3) child.kill('SIGKILL');
    }, 50);
    const [code] = (await once(child, 'close')) as [number | null];
    clearInterval(watch);
    zeros.destroy();
    expect(peak, 'resident memory').toBeLessThan(1024 ** 3);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: --input - (standard input) is over 256 MiB, the most --input reads: split the list into parts\n',
    );
  });
});

describe('readDois: each DOI once, what was skipped counted', () => {
  it('counts blank lines (not the break that ends the file) and repeats in any case or form', async () => {
    const { readDois } = await import('../../src/cli/doi-input.js');
    const list = readDois('doi\n10.1/A\n\n  \nhttps://doi.org/10.1/a\ndoi:10.1/b\n10.1/B\n', 'dois.txt');
    expect(list.entries).toEqual([
      { doi: '10.1/A', input: '10.1/A' },
      { doi: '10.1/b', input: 'doi:10.1/b' },
    ]);
    expect(list).toMatchObject({ blank: 2, repeated: 2, noun: 'line' });
    expect(readDois('', 'dois.txt')).toMatchObject({ entries: [], blank: 0 });
    expect(readDois('id,doi\n1,\n2,10.1/c\n', 'x.csv')).toMatchObject({ blank: 1, noun: 'entry' });
  });

  it('counts a jsonl entry without its DOI as text (null, absent, no object) as blank, as a csv’s empty cell', async () => {
    const { readDois } = await import('../../src/cli/doi-input.js');
    const text = '{"doi":null}\n{"id":2}\n"10.1/x"\n{"doi":"10.1/c"}\n\n';
    const list = readDois(text, 'p.jsonl');
    expect(list.entries).toEqual([{ doi: '10.1/c', input: '10.1/c' }]);
    // Three entries without a DOI, and the blank line before the break that ends the file.
    expect(list).toMatchObject({ blank: 4, noun: 'entry' });
  });

  it.each([
    ['dois.csv', 'doi\n10.1/a\n\n10.1/b\n'],
    ['dois.tsv', 'doi\n10.1/a\n\n10.1/b\n'],
    ['dois.jsonl', '{"doi":"10.1/a"}\n\n{"doi":"10.1/b"}\n'],
    ['dois.txt', 'doi\n10.1/a\n\n10.1/b\n'],
  ])('counts a blank line of %s as the others do', async (name, text) => {
    const { readDois } = await import('../../src/cli/doi-input.js');
    expect(readDois(text, name)).toMatchObject({ blank: 1 });
    // A table's header may follow blank lines.
    if (!name.endsWith('.txt')) expect(readDois(`\n${text}`, name).entries).toHaveLength(2);
  });
});
