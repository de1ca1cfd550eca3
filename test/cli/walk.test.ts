/**
 * Resumable walks (`--output FILE --resume`): stopped by SIGINT, by SIGKILL or by a daily-limit 429,
 * then run again with the same command, the file ends byte for byte as a run never stopped writes it.
 * The mock answers slowly, and each run is stopped once some lines are in the file, never after a time.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support.js';
import { run, start } from './helpers.js';
import { lineCount, linesReach, scratch } from './resume.js';

const sizes = { journals: 10, papers: 400, authors: 20 };
const mock = useMockServer({ sizes, faults: { latencyMs: 20 } });
const limited = useMockServer({ sizes, limits: longLimit(45) });
// The same dataset answered at once: what a run never stopped writes needs no slow server.
const fast = useMockServer({ sizes });
const search = ['papers', 'search', '--per-page', '5', '--all', '--prefetch', '0'];

const wholeFiles = new Map<string, Promise<string>>();

/** The file a run never stopped writes in `format` (made once per format). */
function full(format: string): Promise<string> {
  const known = wholeFiles.get(format);
  if (known !== undefined) return known;
  const made = (async () => {
    const file = join(scratch(), `full.${format}`);
    const result = await run([...search, '--format', format, '--output', file], { url: fast.server.url });
    expect(result.code, result.stderr).toBe(0);
    return readFileSync(file, 'utf8');
  })();
  wholeFiles.set(format, made);
  return made;
}

describe('a walk with --output --resume', { timeout: 120_000 }, () => {
  it.each(['jsonl', 'csv', 'json'])(
    'continues after SIGKILL (%s): no record twice, none missing',
    async (format) => {
      const expected = await full(format);
      const file = join(scratch(), `out.${format}`);
      const args = [...search, '--format', format, '--output', file, '--resume'];
      const first = start(args, { url: mock.server.url });
      await linesReach(file, 40, first.exited);
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(lineCount(file)).toBeLessThan(expected.split('\n').length - 1);
      // A record half-written when the process died: the resume cuts the file back to the checkpoint.
      appendFileSync(file, '{"id": 12');
      const second = await run(args, { url: mock.server.url });
      expect(second.code, second.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(expected);
    },
  );

  it.each([
    ['SIGINT', 130, 'Ctrl-C'],
    ['SIGTERM', 143, 'SIGTERM'],
  ] as const)(
    'stops at %s with exit %i and says how to continue; the same command continues',
    async (signal, code, by) => {
      const expected = await full('jsonl');
      const file = join(scratch(), 'out.jsonl');
      const args = [...search, '--output', file, '--resume'];
      const first = start(args, { url: mock.server.url });
      await linesReach(file, 40, first.exited);
      first.child.kill(signal);
      const stopped = await first.exited;
      expect(stopped.code).toBe(code);
      expect(stopped.stderr).toContain(`stopped by ${by}: run the same command with --resume to continue`);
      expect(lineCount(file)).toBeLessThan(expected.split('\n').length - 1);
      // A checkpoint the file holds, and no temporary file of it left.
      const checkpoint = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8')) as { bytes: number };
      expect(checkpoint.bytes).toBeGreaterThan(0);
      expect(checkpoint.bytes).toBeLessThanOrEqual(readFileSync(file).length);
      expect(readdirSync(join(file, '..')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      const second = await run(args, { url: mock.server.url });
      expect(second.code, second.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(expected);
      // Run again once complete: nothing is sent, the file is kept.
      const before = mock.api.requests.length;
      const third = await run(args, { url: mock.server.url });
      expect(third.code).toBe(0);
      expect(mock.api.requests.length).toBe(before);
      expect(readFileSync(file, 'utf8')).toBe(expected);
    },
  );

  it('a Ctrl-C delivered twice at once (the terminal, and a wrapper passing it on) is one stop: wound down', async () => {
    const file = join(scratch(), 'out.jsonl');
    const first = start([...search, '--output', file], { url: mock.server.url });
    await linesReach(file, 40, first.exited);
    first.child.kill('SIGINT');
    // Apart enough not to merge into one pending signal, as close as a wrapper sends its copy.
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGINT');
    const stopped = await first.exited;
    expect(stopped.code).toBe(130);
    // Wound down, not ended at once: the stop is told, with how to continue.
    expect(stopped.stderr).toContain('stopped by Ctrl-C: run the same command with --resume to continue');
  });

  it('stops at SIGHUP (a terminal closed) as at SIGTERM: exit 129, its checkpoint saved', async () => {
    const file = join(scratch(), 'out.jsonl');
    const first = start([...search, '--output', file], { url: mock.server.url });
    await linesReach(file, 40, first.exited);
    first.child.kill('SIGHUP');
    const stopped = await first.exited;
    expect(stopped.code).toBe(129);
    expect(stopped.stderr).toContain('stopped by SIGHUP: run the same command with --resume to continue');
    const checkpoint = JSON.parse(readFileSync(`${file}.checkpoint.json`, 'utf8')) as { bytes: number };
    expect(checkpoint.bytes).toBeGreaterThan(0);
  });

  it('exits 75 on a daily-limit 429, saying when to run again; a later run completes', async () => {
    const expected = await full('jsonl');
    const file = join(scratch(), 'out.jsonl');
    const args = [...search, '--output', file, '--resume'];
    const first = await run(args, { url: limited.server.url });
    expect(first.code, first.stderr).toBe(75);
    expect(first.stderr).toMatch(
      /^error: RateLimitError: .+\nhint: the rate limit clears in .+: run the same command again after \d{4}-\d\d-\d\dT/,
    );
    expect(readFileSync(file, 'utf8').split('\n').length - 1).toBe(45 * 5);
    // The next day, as it were: the limit's counts start afresh, and the 35 pages left fit in them.
    limited.api.reset();
    const second = await run(args, { url: limited.server.url });
    expect(second.code, second.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('refuses to resume into a file another command wrote (exit 2)', async () => {
    const folder = scratch();
    const file = join(folder, 'out.jsonl');
    const first = await run(['papers', 'search', '--limit', '10', '--output', file], {
      url: mock.server.url,
    });
    expect(first.code).toBe(0);
    const other = await run(['papers', 'search', '--q', 'coral', '--all', '--output', file, '--resume'], {
      url: mock.server.url,
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('was written by another command');
    // The checkpoint is replaced by rename: no temporary file is left beside it.
    expect(readdirSync(folder).sort()).toEqual(['out.jsonl', 'out.jsonl.checkpoint.json']);
    expect(existsSync(`${file}.checkpoint.json`)).toBe(true);
  });
});

/**
 * `requests` per key before a 429 whose Retry-After is far beyond what the SDK waits: the daily limit,
 * unless the UTC day ends within two minutes (its Retry-After would then be short), then an hour's window.
 */
function longLimit(requests: number) {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return midnight - now.getTime() > 120_000
    ? { perDay: requests }
    : { perWindow: { requests, windowMs: 3_600_000 } };
}
