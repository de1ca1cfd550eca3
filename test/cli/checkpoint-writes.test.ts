// The checkpoint as a run writes it: never through a planted link, saved as pages arrive, and never
// started over by accident (an unfinished run needs --resume or --overwrite).
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { useStoppedRuns, walk } from './checkpoint-setup.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const { mock, stoppedRun } = useStoppedRuns();

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
