// Ctrl-C: the command ends at once, its request aborted, saying how to continue where it can; pressed
// once the output is whole, it stops nothing.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/cli/errors.js';
import { useMockServer, useRealServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('Ctrl-C', () => {
  const server = useRealServer();

  it.each([
    ['journals', 'get', '4'],
    ['journals', 'score', '4'],
    ['journals', 'list'],
    ['authors', 'get', '4'],
    ['papers', 'get', '10.1000/abc'],
    ['subjects', 'list'],
    ['countries', 'list'],
    ['papers', 'search', '--all'],
  ])(
    'ends %s %s at once while a request has no answer, the request itself aborted: exit 130',
    async (...args) => {
      // Accepted, never answered: only the client's abort closes it.
      let closed: Promise<unknown> = new Promise(() => {});
      server.serve((req) => {
        closed = new Promise((resolve) => req.on('close', resolve));
      });
      const interrupt = new AbortController();
      const running = run(args, { url: server.base, signal: interrupt.signal });
      await expect.poll(() => server.hits).toBe(1);
      interrupt.abort(new InterruptedError('interrupted'));
      const result = await running;
      expect(result.stderr).toBe('error: InterruptedError: stopped by Ctrl-C\n');
      expect(result.code).toBe(130);
      await closed;
    },
  );

  it.each([
    [
      ['papers', 'search', '--all', '--output=OUT.jsonl'],
      ': run the same command with --resume to continue where it stopped',
    ],
    [
      ['papers', 'search', '--all', '-oOUT.jsonl'],
      ': run the same command with --resume to continue where it stopped',
    ],
    // A command without --resume is not told to use it.
    [['journals', 'list', '-o', 'OUT.csv'], ''],
  ])('with --output, says how to continue where the command can: %j', async (args, hint) => {
    server.serve(() => {}); // accepted, never answered
    const folder = scratch();
    const interrupt = new AbortController();
    const running = run(
      args.map((arg) => arg.replace('OUT', join(folder, 'out'))),
      { url: server.base, signal: interrupt.signal },
    );
    await expect.poll(() => server.hits).toBe(1);
    interrupt.abort(new InterruptedError('interrupted'));
    const result = await running;
    expect(result.stderr).toBe(`error: InterruptedError: stopped by Ctrl-C${hint}\n`);
    expect(result.code).toBe(130);
  });
});

describe('Ctrl-C before a harvest opens its file', () => {
  it('tells no --resume: nothing was written to continue', async () => {
    const folder = scratch();
    const stdin = new PassThrough();
    stdin.write('10.1000/abc/def\n'); // and kept open: the command still reads its DOIs
    const interrupt = new AbortController();
    const output = join(folder, 'papers.jsonl');
    const running = run(['papers', 'get-many', '--input', '-', '-o', output], {
      url: 'http://127.0.0.1:9/api/v1',
      stdin,
      signal: interrupt.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    interrupt.abort(new InterruptedError('interrupted'));
    const result = await running;
    expect(result.stderr).toBe('error: InterruptedError: stopped by Ctrl-C\n');
    expect(result.code).toBe(130);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('Ctrl-C once the output is whole', () => {
  /** Runs `args`, pressing Ctrl-C when stdout or stderr, as written so far, matches `at`. */
  async function stoppedAt(args: string[], at: { stdout?: RegExp; stderr?: RegExp }) {
    const interrupt = new AbortController();
    const result = await run(args, {
      url: mock.server.url,
      signal: interrupt.signal,
      onWrite: (stream, written) => {
        if (at[stream]?.test(written) && !interrupt.signal.aborted)
          interrupt.abort(new InterruptedError('interrupted'));
      },
    });
    expect(interrupt.signal.aborted).toBe(true);
    return result;
  }

  it('stops nothing: pressed as the document ends, the command ends as it would have (exit 0)', async () => {
    const result = await stoppedAt(['papers', 'search', '--limit', '5', '--format', 'json'], {
      stdout: /\]\n$/,
    });
    expect(JSON.parse(result.stdout)).toHaveLength(5);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('with --output, sends nobody after --resume: the file is complete, the last word said, exit 0', async () => {
    const output = join(scratch(), 'out.jsonl');
    const result = await stoppedAt(['papers', 'search', '--all', '-o', output], { stderr: /^wrote / });
    expect(result.stderr).toMatch(/^wrote 50 of 50 papers to .*out\.jsonl \(/);
    expect(result.stderr).not.toContain('--resume');
    expect(result.code).toBe(0);
    const again = await run(['papers', 'search', '--all', '-o', output, '--resume'], {
      url: mock.server.url,
    });
    expect(again.stderr).toContain('is complete: nothing left to resume');
  });

  it('sync: pressed once every query is refreshed, the runs stay done and the command ends with exit 0', async () => {
    const database = join(scratch(), 'metrics.sqlite');
    const result = await stoppedAt(['sync', database, 'journals'], { stderr: /^wrote / });
    expect(result.stderr).toMatch(/^wrote [\d,]+ records to .*metrics\.sqlite \(/);
    expect(result.code).toBe(0);
    const runs = new DatabaseSync(database, { readOnly: true });
    expect(runs.prepare('SELECT stopped_by FROM sync_runs').all()).toEqual([{ stopped_by: 'done' }]);
    runs.close();
  });
});
