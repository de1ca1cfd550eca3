/**
 * The checkpoint beside `--output FILE`: checked whole before FILE is touched (a bad one exits 2
 * naming what is wrong, FILE unchanged, nothing sent), never written through a planted link, and
 * never started over by accident (an unfinished run needs --resume or --overwrite).
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../integration/use-mock-server.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 100, authors: 20 } });
const walk = ['papers', 'search', '--per-page', '5', '--limit', '20', '--prefetch', '0'];

/** FILE as a full run writes it, and its checkpoint rewritten as a run stopped after page `pages` left it. */
async function stoppedRun(pages: number) {
  const file = join(scratch(), 'out.jsonl');
  const full = await run([...walk, '--output', file], { url: mock.server.url });
  expect(full.code, full.stderr).toBe(0);
  const whole = readFileSync(file, 'utf8');
  const complete = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8'));
  const lines = whole.split('\n').slice(0, pages * 5);
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
