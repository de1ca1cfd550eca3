/**
 * The checkpoint beside `--output FILE`: checked whole before FILE is touched (a bad one exits 2
 * naming what is wrong, FILE unchanged, nothing sent), never written through a planted link, and
 * never started over by accident (an unfinished run needs --resume or --overwrite): here the checkpoint
 * read back; checkpoint-writes.test.ts and checkpoint-escaped.test.ts the rest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useStoppedRuns, walk } from './checkpoint-setup.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const { mock, stoppedRun } = useStoppedRuns();

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
    const words = await run(['journals', 'papers', '1', ...options, '--output', file, '--resume'], {
      url: mock.server.url,
    });
    // As the command line gives it, not as the checkpoint records it (`--perPage=5`).
    expect(words.stderr).toMatch(
      /was written by another command \(papers search --base-url http:\/\/127\.0\.0\.1:\d+\/api\/v1 --limit 20 --per-page 5 --format jsonl\): run that command/,
    );
    expect(mock.api.requests).toHaveLength(0);
  });

  it('of the same search however its term was typed (words, --q, --query): resumed, and another term refused', async () => {
    // The mock matches a term as a phrase: 9 papers hold this one, 17 the word `study`.
    for (const spelling of [
      ['study', 'of'],
      ['--query', 'study of'],
      ['--q', 'study', 'of'],
    ]) {
      const { file, whole } = await stoppedRun(1, 'out.jsonl', ['--q', 'study of']);
      const resumed = await run([...walk, ...spelling, '--output', file, '--resume'], {
        url: mock.server.url,
      });
      expect([spelling, resumed.code, resumed.stderr]).toEqual([spelling, 0, expect.any(String)]);
      expect(readFileSync(file, 'utf8')).toBe(whole);
    }
    const { file } = await stoppedRun(1, 'out.jsonl', ['study']);
    const other = await run([...walk, '--q', 'of', '--output', file, '--resume'], { url: mock.server.url });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('(the checkpoint was made with --q study; this run has --q of)');
  });

  it('of 0.4, which recorded no --format the extension chose, its options in another order: resumed', async () => {
    const { file, whole, checkpoint } = await stoppedRun(2);
    const options = (checkpoint.command as string[]).filter((part) => part.startsWith('--'));
    const words = (checkpoint.command as string[]).filter((part) => !part.startsWith('--'));
    const earlier = [...words, ...options.filter((part) => !part.startsWith('--format=')).reverse()];
    writeFileSync(`${file}.checkpoint.json`, JSON.stringify({ ...checkpoint, command: earlier }));
    const resumed = await run([...walk, '--output', file, '--resume'], { url: mock.server.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(whole);
  });

  it('of 0.4, its term recorded as typed (words, --query): resumed; another format now typed: refused', async () => {
    /** FILE stopped after a page, its checkpoint as 0.4 recorded the command, the term as `term`. */
    const stoppedIn04 = async (term: string[]) => {
      const stopped = await stoppedRun(1, 'out.jsonl', ['--q', 'study of']);
      const options = (stopped.checkpoint.command as string[]).filter(
        (part) => part.startsWith('--') && !part.startsWith('--format=') && !part.startsWith('--q='),
      );
      const command = ['papers', 'search', ...term, ...options];
      writeFileSync(`${stopped.file}.checkpoint.json`, JSON.stringify({ ...stopped.checkpoint, command }));
      return stopped;
    };
    for (const [recorded, typed] of [
      [
        ['study', 'of'],
        ['study', 'of'],
      ],
      [['--query="study of"'], ['--query', 'study of']],
    ] as const) {
      const { file, whole } = await stoppedIn04([...recorded]);
      const resumed = await run([...walk, ...typed, '--output', file, '--resume'], { url: mock.server.url });
      expect([typed, resumed.code, resumed.stderr]).toEqual([typed, 0, expect.any(String)]);
      expect(readFileSync(file, 'utf8')).toBe(whole);
    }
    const { file } = await stoppedIn04(['study', 'of']);
    const csv = await run([...walk, 'study', 'of', '--format', 'csv', '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(csv.code).toBe(2);
    expect(csv.stderr).toContain('was written by another command');
  });

  it('of authors list, its term given by --q or --query: the same command', async () => {
    const file = join(scratch(), 'authors.jsonl');
    const first = await run(['authors', 'list', '--q', 'a', '--output', file], { url: mock.server.url });
    expect(first.code, first.stderr).toBe(0);
    const again = await run(['authors', 'list', '--query', 'a', '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('is complete: nothing left to resume');
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
