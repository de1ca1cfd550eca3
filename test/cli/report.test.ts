// The command line's report of an error: its exit code, and when to run again after a rate limit.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/errors.js';
import { describeError, exitCodeOf, runAgainLine } from '../../src/cli/report.js';
import {
  ConfigurationError,
  InvalidParameterError,
  MetricError,
  RateLimitError,
} from '../../src/core/errors.js';
import { useMockServer } from '../support.js';
import { run } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('a rate limit that will not clear soon, with --output', () => {
  it.each([
    [['papers', 'search', '--all', '-o', 'OUT.jsonl'], 'run the same command with --resume after'],
    [['papers', 'search', '--all', '-o', 'OUT.jsonl', '--resume'], 'run the same command again after'],
    [['journals', 'list', '--output=OUT.csv'], 'run the same command again after'],
  ])('%j: the hint names --resume where the next run needs it', async (args, hint) => {
    const folder = scratch();
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '7200' } });
    const result = await run(
      args.map((arg) => arg.replace('OUT', join(folder, 'out'))),
      { url: mock.server.url },
    );
    expect(result.code, result.stderr).toBe(75);
    expect(result.stderr).toMatch(new RegExp(`\nhint: the rate limit clears in 2 h 0 min: ${hint} \\d{4}-`));
  });
});

describe('a harvest that fails partway', () => {
  /** Answers page 3 of the search with a body not of its shape (not retried), as a server failing partway does. */
  function failPage3() {
    const handle = mock.api.handle;
    mock.api.handle = async (request) => {
      if (new URL(request.url).searchParams.get('page') !== '3') return handle.call(mock.api, request);
      return Response.json({ data: 'not a list', total: 50 });
    };
    return () => {
      mock.api.handle = handle;
    };
  }

  it.each([
    [[], 'run the same command with --resume to continue where it stopped'],
    [['--resume'], 'run the same command again to continue where it stopped'],
  ])('%j: says how to continue, as a stop does; -q leaves it out', async (more, hint) => {
    const file = join(scratch(), 'out.jsonl');
    const args = ['papers', 'search', '--all', '--per-page', '5', '-o', file, ...more];
    const restore = failPage3();
    try {
      const failed = await run(args, { url: mock.server.url });
      expect(failed.code).toBe(1);
      const error = /^error: ResponseValidationError: [^\n]+\n/;
      expect(failed.stderr).toMatch(error);
      expect(failed.stderr.replace(error, '')).toBe(`hint: ${hint}\n`);
      // Continued (its file holds the first pages), and failing at the same page again.
      const quiet = await run([...args, '-q', ...(more.length === 0 ? ['--resume'] : [])], {
        url: mock.server.url,
      });
      expect(quiet.stderr.replace(error, '')).toBe('');
    } finally {
      restore();
    }
    expect(
      (await run([...args.filter((arg) => arg !== '--resume'), '--resume'], { url: mock.server.url })).code,
    ).toBe(0);
  });

  it('a one-request command, or a harvest to standard output, has no such hint', async () => {
    const restore = failPage3();
    try {
      const out = await run(['papers', 'search', '--all', '--per-page', '5'], { url: mock.server.url });
      expect(out.code).toBe(1);
      expect(out.stderr).not.toContain('hint:');
    } finally {
      restore();
    }
  });
});

describe('describeError and the exit codes', () => {
  it('maps usage, rate limits and API errors to 2, 75 and 1', () => {
    const limited = new RateLimitError(429, new Headers(), {}, 7200);
    expect(exitCodeOf(new UsageError('x'))).toBe(2);
    // Told apart by class: a bad option or parameter is a usage error, any other MetricError is not.
    expect(exitCodeOf(new ConfigurationError('timeout', 'x'))).toBe(2);
    expect(exitCodeOf(new InvalidParameterError('id', 'x'))).toBe(2);
    expect(exitCodeOf(new MetricError('x'))).toBe(1);
    expect(exitCodeOf(limited)).toBe(75);
    expect(describeError(limited, { debug: false, now: Date.UTC(2026, 0, 1) })).toBe(
      `error: RateLimitError: ${limited.message}\nhint: the rate limit clears in 2 h 0 min: run the same command again after 2026-01-01T02:00:00Z\n`,
    );
  });

  it('says when to run again, or later when the server did not say', () => {
    expect(runAgainLine(undefined, 0)).toContain('run the same command again later');
    // A RateLimitError made by hand may hold anything: the line is still written.
    for (const odd of [Number.POSITIVE_INFINITY, Number.NaN, 1e300, -1])
      expect(runAgainLine(odd, Date.now())).toContain('run the same command again later');
    expect(runAgainLine(90, 0)).toBe(
      'the rate limit clears in 2 min: run the same command again after 1970-01-01T00:01:30Z',
    );
  });

  it('rounds the wait up to whole minutes before it counts the hours: never 60 min after the hours', () => {
    const said = (seconds: number) => runAgainLine(seconds, 0).replace(/: run .*/, '');
    expect(said(3599)).toBe('the rate limit clears in 1 h 0 min');
    expect(said(3600)).toBe('the rate limit clears in 1 h 0 min');
    expect(said(3601)).toBe('the rate limit clears in 1 h 1 min');
    expect(said(7199)).toBe('the rate limit clears in 2 h 0 min');
    expect(said(86_399)).toBe('the rate limit clears in 24 h 0 min');
    expect(said(3540)).toBe('the rate limit clears in 59 min');
  });
});
