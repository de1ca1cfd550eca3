/**
 * The checkpoint beside `--output FILE`: checked whole before FILE is touched (a bad one exits 2
 * naming what is wrong, FILE unchanged, nothing sent), never written through a planted link, and
 * never started over by accident (an unfinished run needs --resume or --overwrite).
 */
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { clipboardName, clipboardNameShown, expectNameEscaped, hostile } from './output/hostile.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 20 } });
const walk = ['papers', 'search', '--per-page', '5', '--limit', '20', '--prefetch', '0'];

/**
 * FILE (`name`) as a full run with `options` writes it, and its checkpoint rewritten as a run stopped
 * after page `pages` left it.
 */
async function stoppedRun(pages: number, name = 'out.jsonl', options: readonly string[] = []) {
  const file = join(scratch(), name);
  const full = await run([...walk, ...options, '--output', file], { url: mock.server.url });
  expect(full.code, full.stderr).toBe(0);
  const whole = readFileSync(file, 'utf8');
  const complete = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'));
  const header = name.endsWith('.csv') ? 1 : 0;
  const lines = whole.split('\n').slice(0, header + pages * 5);
  const checkpoint = {
    ...complete,
    bytes: Buffer.byteLength(`${lines.join('\n')}\n`),
    writer: { ...complete.writer, count: pages * 5 },
    position: pages + 1,
    complete: false,
  };
  writeFileSync(`${file}.checkpoint.json`, JSON.stringify(checkpoint));
  mock.api.reset();
  return { file, whole, checkpoint };
}

describe('a checkpoint read back', () => {
  it('of the same command with other options: the refusal names each option that differs (exit 2)', async () => {
    const { file } = await stoppedRun(2);
    const year = await run([...walk, '--year', '2024', '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(year.code).toBe(2);
    expect(year.stderr).toContain(
      'the checkpoint was made with no --year; this run has --year 2024): run that command to resume it',
    );
    const [, , ...options] = walk;
    const other = ['papers', 'search', ...options.slice(0, 2), '--limit', '25', '--prefetch', '0'];
    const limit = await run([...other, '--fields', 'doi,title', '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(limit.stderr).toContain(
      'the checkpoint was made with no --fields, --limit 20; this run has --fields doi,title, --limit 25)',
    );
    // Another command altogether: the saved command, whole.
    const words = await run(['papers', 'search', 'coral', ...options, '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(words.stderr).toMatch(/was written by another command \(papers search --/);
    expect(mock.api.requests).toHaveLength(0);
  });

  it('of the same file, its format given or told by the extension, any --row-group of a text file: resumed', async () => {
    const csv = await stoppedRun(2, 'out.csv', ['--row-group', '7']);
    const rowGroup = await run([...walk, '--row-group', '9', '--output', csv.file, '--resume'], {
      url: mock.server.url,
    });
    expect(rowGroup.code, rowGroup.stderr).toBe(0);
    expect(readFileSync(csv.file, 'utf8')).toBe(csv.whole);
    const jsonl = await stoppedRun(2, 'out.jsonl', ['--format', 'jsonl']);
    const told = await run([...walk, '--output', jsonl.file, '--resume'], { url: mock.server.url });
    expect(told.code, told.stderr).toBe(0);
    expect(readFileSync(jsonl.file, 'utf8')).toBe(jsonl.whole);
    // Another format into the same file is another command.
    const other = await stoppedRun(2, 'out.txt');
    const csvInto = await run([...walk, '--format', 'csv', '--output', other.file, '--resume'], {
      url: mock.server.url,
    });
    expect(csvInto.code).toBe(2);
    expect(csvInto.stderr).toContain(
      'the checkpoint was made with --format jsonl; this run has --format csv',
    );
  });

  it('as a stopped run left it: the resume ends the file as the full run wrote it', async () => {
    const { file, whole } = await stoppedRun(2);
    const result = await run([...walk, '--output', file, '--resume'], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(whole);
    // Pages 3 and 4 only.
    expect(mock.api.requests).toHaveLength(2);
  });

  it.each([
    [
      'bytes past the end of FILE',
      (c: Record<string, unknown>) => ({ ...c, bytes: 10_000_000 }),
      /bytes is 10000000, past the \d+ bytes of .*out\.jsonl/,
    ],
    [
      'bytes: -1',
      (c: Record<string, unknown>) => ({ ...c, bytes: -1 }),
      /bytes is not a whole number of 0 or more/,
    ],
    ['bytes: 1.5', (c: Record<string, unknown>) => ({ ...c, bytes: 1.5 }), /bytes is not a whole number/],
    ['{}', () => ({}), /command is not a list of strings/],
    ['null', () => null, /not an object/],
    ['[]', () => [], /not an object/],
    [
      'position: "2"',
      (c: Record<string, unknown>) => ({ ...c, position: '2' }),
      /position is not a whole number/,
    ],
    [
      'position: 0 (pages start at 1)',
      (c: Record<string, unknown>) => ({ ...c, position: 0 }),
      /position 0 is not from 1 to/,
    ],
    [
      'writer missing',
      (c: Record<string, unknown>) => ({ ...c, writer: undefined }),
      /writer is not an object/,
    ],
    [
      'writer.count: -3',
      (c: Record<string, unknown>) => ({ ...c, writer: { count: -3 } }),
      /writer\.count is not/,
    ],
    [
      'complete: "no"',
      (c: Record<string, unknown>) => ({ ...c, complete: 'no' }),
      /complete is not true or false/,
    ],
  ])('%s: exit 2 naming it, FILE unchanged, nothing sent', async (_, edit, named) => {
    const { file, checkpoint } = await stoppedRun(2);
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify(edit(checkpoint)));
    const before = readFileSync(file);
    const result = await run([...walk, '--output', file, '--resume'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: .*out\.jsonl\.checkpoint\.json is not a checkpoint this command can resume/,
    );
    expect(result.stderr).toMatch(named);
    expect(readFileSync(file)).toEqual(before);
    expect(mock.api.requests).toHaveLength(0);
  });

  it('not JSON: exit 2, FILE unchanged', async () => {
    const { file } = await stoppedRun(1);
    writeFileSync(`${file}.checkpoint.json`, '{"command": [');
    const before = readFileSync(file);
    const result = await run([...walk, '--output', file, '--resume'], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(not JSON)');
    expect(readFileSync(file)).toEqual(before);
  });
});

describe('the checkpoint written', () => {
  it('never through a link planted where a temporary file could be', async () => {
    const folder = scratch();
    const file = join(folder, 'out.jsonl');
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    // The name 0.3 always used, and links at the checkpoint's own path's neighbours.
    symlinkSync(victim, `${file}.checkpoint.json.${process.pid}.tmp`);
    const result = await run([...walk, '--output', file], { url: mock.server.url });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8')).complete).toBe(true);
    // No temporary file is left behind.
    expect(
      readdirSync(folder).filter((name) => name.endsWith('.tmp') && !name.includes(String(process.pid))),
    ).toEqual([]);
  });
});

describe('a file with an unfinished run', () => {
  it('without --resume: exit 2 saying what to add; FILE and its checkpoint unchanged', async () => {
    const { file } = await stoppedRun(2);
    const before = readFileSync(file);
    const checkpoint = readFileSync(`${file}.checkpoint.json`);
    const result = await run([...walk, '--output', file], { url: mock.server.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${file} holds an unfinished run: add --resume to continue, or --overwrite to start again\n`,
    );
    expect(readFileSync(file)).toEqual(before);
    expect(readFileSync(`${file}.checkpoint.json`)).toEqual(checkpoint);
    expect(mock.api.requests).toHaveLength(0);
  });

  it('--overwrite starts again; with --resume it is a usage error', async () => {
    const { file, whole } = await stoppedRun(2);
    const both = await run([...walk, '--output', file, '--resume', '--overwrite'], { url: mock.server.url });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--resume and --overwrite exclude each other');
    const again = await run([...walk, '--output', file, '--overwrite'], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(whole);
    expect(mock.api.requests).toHaveLength(4);
  });

  it('a finished run is written afresh without either', async () => {
    const file = join(scratch(), 'out.jsonl');
    expect((await run([...walk, '--output', file], { url: mock.server.url })).code).toBe(0);
    const again = await run([...walk, '--output', file], { url: mock.server.url });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(`${file}.checkpoint.json`)).toBe(true);
  });
});

describe('the checkpoint saved as pages arrive', () => {
  /** Runs `args`, reading the checkpoint's position as each page is asked for; `onPage` may act then. */
  async function watched(
    args: string[],
    file: string,
    options: { now: () => number; onPage?: (page: number) => void; signal?: AbortSignal },
  ) {
    const seen: (number | undefined)[] = [];
    const handle = mock.api.handle.bind(mock.api);
    mock.api.handle = (request) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? 1);
      const path = `${file}.checkpoint.json`;
      seen[page] = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).position : undefined;
      options.onPage?.(page);
      return handle(request);
    };
    try {
      return {
        result: await run(args, { url: mock.server.url, now: options.now, signal: options.signal }),
        seen,
      };
    } finally {
      mock.api.handle = handle;
    }
  }

  it('after the first page, then at most once a second', async () => {
    const file = join(scratch(), 'out.jsonl');
    const still = await watched([...walk, '--output', file], file, { now: () => 0 });
    expect(still.result.code, still.result.stderr).toBe(0);
    // Saved after page 1 (position 2), then not again within the second; complete at the end.
    expect(still.seen.slice(1)).toEqual([undefined, 2, 2, 2]);
    expect(JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8')).complete).toBe(true);

    let clock = 0;
    const moving = await watched([...walk, '--output', file, '--overwrite'], file, {
      now: () => (clock += 1000),
    });
    expect(moving.result.code, moving.result.stderr).toBe(0);
    // A second or more between pages: saved after each one.
    expect(moving.seen.slice(2)).toEqual([2, 3, 4]);
  });

  it('and when the run stops: Ctrl-C keeps every page written, and the resume completes the file', async () => {
    const folder = scratch();
    const whole = await run([...walk, '--output', join(folder, 'whole.jsonl')], { url: mock.server.url });
    expect(whole.code, whole.stderr).toBe(0);
    const file = join(folder, 'out.jsonl');
    const stop = new AbortController();
    const stopped = await watched([...walk, '--output', file], file, {
      now: () => 0,
      signal: stop.signal,
      // Ctrl-C, as the bin's IO plays it.
      onPage: (page) => page === 4 && stop.abort(new InterruptedError('interrupted')),
    });
    expect(stopped.result.code, stopped.result.stderr).toBe(130);
    // Pages 2 and 3 were never saved while the clock stood still: closing saved them.
    expect(JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'))).toMatchObject({
      position: 4,
      complete: false,
    });
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(15 + 1);
    const resumed = await run([...walk, '--output', file, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(folder, 'whole.jsonl'), 'utf8'));
  });
});

describe('what is said of FILE and its checkpoint names them escaped', () => {
  /** FILE, named to write the clipboard, as a full run wrote it, and its checkpoint. */
  async function written() {
    const file = join(scratch(), clipboardName);
    const full = await run([...walk, '--output', file], { url: mock.server.url });
    expect(full.code, full.stderr).toBe(0);
    const checkpoint = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'));
    return { file, checkpoint };
  }

  const resume = (file: string) => run([...walk, '--output', file, '--resume'], { url: mock.server.url });

  it('a checkpoint refused: not JSON, FILE gone', async () => {
    const { file, checkpoint } = await written();
    writeFileSync(`${file}.checkpoint.json`, '{"command": [');
    const notJson = await resume(file);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(
      '.checkpoint.json is not a checkpoint this command can resume (not JSON)',
    );
    expectNameEscaped(notJson.stderr);
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, complete: false, position: 2 }));
    rmSync(file);
    const gone = await resume(file);
    expect(gone.code).toBe(2);
    // In the checkpoint's name, and in what is wrong.
    expect(gone.stderr.split(clipboardNameShown)).toHaveLength(3);
    expectNameEscaped(gone.stderr);
  });

  it('another command, its words read from the checkpoint escaped too', async () => {
    const { file, checkpoint } = await written();
    const command = [...checkpoint.command, `--q=${hostile.title}`];
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, command }));
    const result = await resume(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('was written by another command (');
    expect(result.stderr).toContain('--q \\e]0;pwned\\x07');
    expectNameEscaped(result.stderr);
  });

  it('an unfinished run without --resume; a complete one with it', async () => {
    const { file, checkpoint } = await written();
    const complete = await resume(file);
    expect(complete.code, complete.stderr).toBe(0);
    expect(complete.stderr).toContain(' is complete: nothing left to resume');
    expectNameEscaped(complete.stderr);
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, complete: false, position: 2 }));
    const unfinished = await run([...walk, '--output', file], { url: mock.server.url });
    expect(unfinished.code).toBe(2);
    expect(unfinished.stderr).toContain(' holds an unfinished run: add --resume to continue');
    expectNameEscaped(unfinished.stderr);
  });

  it.each([
    // Long enough that the checkpoint's temporary name is too long, the checkpoint itself not.
    ['written', 220],
    // Long enough that the checkpoint's own name is too long, FILE's not.
    ['read', 245],
  ])("a checkpoint that cannot be %s: Node's words escaped", async (_, length) => {
    const name = `${clipboardName}${'x'.repeat(length - clipboardName.length)}`;
    const file = join(scratch(), name);
    const result = await run([...walk, '--output', file], { url: mock.server.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Error: ENAMETOOLONG: name too long, open '.*'\n$/);
    expectNameEscaped(result.stderr);
  });
});
