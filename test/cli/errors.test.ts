import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptedError, UsageError } from '../../src/cli/errors.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import { describeError, exitCodeOf, runAgainLine } from '../../src/cli/report.js';
import {
  ConfigurationError,
  InvalidParameterError,
  MetricError,
  RateLimitError,
} from '../../src/core/errors.js';
import { type ClientOptions, MetricClient } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_NO_ACCESS_API_KEY } from '../../src/testing/index.js';
import { UNKNOWN_KEY, useMockServer, useRealServer } from '../support.js';
import { jsonLines, run, testIO } from './helpers.js';
import { scratch } from './resume.js';

const mock = useMockServer({ sizes: { journals: 5, papers: 50, authors: 20 } });

describe('errors of the scholarly-metrics command', () => {
  it('401: one line with the class, a hint naming METRIC_API_KEY, exit 1', async () => {
    const result = await run(['subjects', 'list'], { url: mock.server.url, key: UNKNOWN_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: AuthenticationError: [^\n]+\nhint: set METRIC_API_KEY to your API key/,
    );
    expect(result.stderr).not.toContain(UNKNOWN_KEY);
  });

  it('403: the hint says the plan has no access', async () => {
    const result = await run(['journals', 'score', '1'], {
      url: mock.server.url,
      key: MOCK_NO_ACCESS_API_KEY,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: PermissionDeniedError: .+\nhint: .+METRIC_API_KEY/);
    // The hint is a whole sentence: it ends on what the plan must include, not on a dangling verb.
    expect(result.stderr).toContain(
      "hint: the key's plan does not include API access: set METRIC_API_KEY to the key of a plan that includes it\n",
    );
  });

  it('a base URL without /api/v1: the 404 gets a hint with the URL it likely meant', async () => {
    const root = mock.server.url.replace(/\/api\/v1$/, '');
    const result = await run(['journals', 'get', '1'], { url: `${root}/` });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`hint: the API lives under /api/v1: try --base-url ${root}/api/v1\n`);
    const flag = await run(['journals', 'get', '1', '--base-url', root], { url: mock.server.url });
    expect(flag.stderr).toContain(`try --base-url ${root}/api/v1`);
    // Under /api/v1 a 404 is a 404: no hint about the path.
    const missing = await run(['journals', 'get', '999999'], { url: mock.server.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).not.toContain('hint:');
  });

  it('a key with a leading space is named METRIC_API_KEY, not the SDK option apiKey; the key not shown', async () => {
    const result = await run(['subjects', 'list'], { url: mock.server.url, key: ` ${MOCK_API_KEY}` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: ConfigurationError: METRIC_API_KEY must be /);
    expect(result.stderr).toContain('starts or ends with a space');
    expect(result.stderr).not.toContain('apiKey');
    expect(result.stderr).not.toContain(MOCK_API_KEY);
  });

  it('-q keeps the error line and drops its hint', async () => {
    const result = await run(['-q', 'subjects', 'list'], { url: mock.server.url, key: UNKNOWN_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: AuthenticationError: [^\n]+\n$/);
    const after = await run(['subjects', 'list', '--quiet'], { url: mock.server.url, key: UNKNOWN_KEY });
    expect(after.stderr).not.toContain('hint:');
  });

  it('no key: a usage error naming METRIC_API_KEY and --mock (exit 2); there is no flag for the key', async () => {
    for (const key of [undefined, '']) {
      const result = await run(['subjects', 'list'], { url: mock.server.url, key });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('error: no API key: export METRIC_API_KEY=… (or try --mock)\n');
    }
    expect(mock.api.requests).toHaveLength(0);
    const flag = await run(['subjects', 'list', '--api-key', MOCK_API_KEY], { url: mock.server.url });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("error: unknown option '--api-key'");
  });

  it('no base URL: a usage error naming METRIC_BASE_URL, --base-url and --mock (exit 2)', async () => {
    for (const url of [undefined, '']) {
      const result = await run(['subjects', 'list'], { url, key: MOCK_API_KEY });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: no base URL: export METRIC_BASE_URL=https://…/api/v1 or give --base-url (or try --mock)\n',
      );
    }
    const flag = await run(['subjects', 'list', '--base-url', ''], { key: MOCK_API_KEY });
    expect(flag.stderr).toMatch(/^error: no base URL/);
  });

  it('refuses a count past the largest exact whole number, naming it (exit 2)', async () => {
    const huge = await run(['journals', 'papers', '1', '--limit', '99999999999999999999'], {
      url: mock.server.url,
    });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('expected a whole number from 1 to 9007199254740991');
  });

  it('refuses a request rate that is not a positive whole number (exit 2)', async () => {
    const result = await run(['--max-requests-per-minute', '0', 'subjects', 'list'], {
      url: mock.server.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected a whole number 1 or more');
    const given = await run(['subjects', 'list', '--max-requests-per-minute', '600'], {
      url: mock.server.url,
    });
    expect(given.code, given.stderr).toBe(0);
  });

  it('an --output that cannot be written is a usage error (exit 2)', async () => {
    const result = await run(['--mock', 'subjects', 'list', '--output', '/nonexistent-folder/out.jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write --output \/nonexistent-folder\/out.jsonl: ENOENT/);
  });

  it('--mock beside --base-url is a usage error (exit 2): the mock would ignore the URL', async () => {
    const result = await run(['--mock', 'subjects', 'list', '--base-url', 'http://127.0.0.1:9/api/v1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --mock and --base-url exclude each other: give one\n');
  });

  it('a network error exits 1 with the class, and says which base URL it tried', async () => {
    const result = await run(['subjects', 'list', '--base-url', 'http://127.0.0.1:9/api/v1'], {
      url: mock.server.url,
      env: { METRIC_LOG: 'off' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: ConnectionError: [^\n]+\nhint: check --base-url or METRIC_BASE_URL \(now: http:\/\/127\.0\.0\.1:9\/api\/v1\)\n$/,
    );
  });

  it.each(['not a url', 'ftp://127.0.0.1/api/v1'])(
    'a base URL the SDK refuses (%s): its own words, exit 2, before any request',
    async (baseUrl) => {
      /** What the SDK says of the same settings: the option, or the variable, it was given. */
      const sdkMessage = (options: ClientOptions) => {
        try {
          new MetricClient({ apiKey: MOCK_API_KEY, ...options });
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      };
      const env = { METRIC_BASE_URL: baseUrl };
      for (const given of [
        { args: ['--base-url', baseUrl], said: sdkMessage({ baseUrl }) },
        { env, said: sdkMessage({ env }) },
      ]) {
        expect(given.said).not.toBe('');
        const result = await run([...(given.args ?? []), 'subjects', 'list'], {
          key: MOCK_API_KEY,
          env: given.env ?? {},
        });
        expect(result.stderr).toBe(`error: ConfigurationError: ${given.said}\n`);
        expect(result.code).toBe(2);
      }
    },
  );

  it('--debug adds the stack and the SDK debug log on stderr, the key redacted', async () => {
    const result = await run(['--debug', 'journals', 'get', '999999'], { url: mock.server.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^\[scholarly-metrics\] /m);
    expect(result.stderr).toMatch(/^error: NotFoundError: /m);
    expect(result.stderr).toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain(MOCK_API_KEY);
    expect(result.stdout).toBe('');
  });

  it('METRIC_LOG logs on stderr, never among the records on stdout', async () => {
    const result = await run(['subjects', 'list'], { url: mock.server.url, env: { METRIC_LOG: 'debug' } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^\[scholarly-metrics\] /m);
    expect(jsonLines(result.stdout).length).toBeGreaterThan(0);
  });

  it('a METRIC_LOG the SDK refuses: its words, exit 2, before any request; --debug takes its place', async () => {
    const sent = mock.api.requests.length;
    const result = await run(['subjects', 'list'], { url: mock.server.url, env: { METRIC_LOG: 'loud' } });
    expect(result.stderr).toBe(
      'error: ConfigurationError: METRIC_LOG must be one of off, error, warn, info, debug\n',
    );
    expect(result.code).toBe(2);
    expect(mock.api.requests).toHaveLength(sent);
    const debug = await run(['--debug', 'subjects', 'list'], {
      url: mock.server.url,
      env: { METRIC_LOG: 'loud' },
    });
    expect(debug.code, debug.stderr).toBe(0);
  });

  it('--mock needs no key and no server', async () => {
    const result = await run(['--mock', 'subjects', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout).length).toBeGreaterThan(0);
  });

  it('an unknown command: a usage error with a suggestion (exit 2); --help and --version exit 0', async () => {
    const result = await run(['journals', 'lst']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown command 'lst'");
    expect(result.stderr).toContain('Did you mean list?');
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ scholarly-metrics --mock journals list');
    // The description is one paragraph that commander wraps: no line broken short by hand.
    expect(help.stdout.split('\n\n')[1]!.replaceAll('\n', ' ')).toBe(
      'The Scholarly Metrics API from a shell. The key comes from METRIC_API_KEY, the base URL from METRIC_BASE_URL or --base-url.',
    );
    expect(help.stdout).not.toMatch(/base URL from\n/);
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('an absurd Retry-After (a server that means harm, or has a bug)', () => {
  const server = useRealServer();

  it.each([
    ['10000000000000', /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['9'.repeat(400), /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['Sat, 13 Sep 275760 00:00:00 GMT', /clears in 24 h 0 min: run the same command again after \d{4}-/],
    ['1e300', /did not say when the rate limit clears: run the same command again later/],
  ])('Retry-After: %s: the RateLimitError, when to run again, exit 75', async (retryAfter, hint) => {
    server.serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
      res.end('{"error":{"code":"rate_limited","message":"Daily request limit exceeded"}}');
    });
    const result = await run(['subjects', 'list'], { url: server.base });
    expect(result.stderr).toMatch(/^error: RateLimitError: [^\n]+\nhint: [^\n]+\n$/);
    expect(result.stderr).toMatch(hint);
    expect(result.code).toBe(75);
  });
});

describe("the server's own words", () => {
  const server = useRealServer();
  const refusal = { error: { status: 400, message: 'sort must be one of score, -score\u001b[31m' } };
  const serveRefusal = () =>
    server.serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(refusal));
    });

  it('a 400 says what the server said, escaped, on its one line', async () => {
    serveRefusal();
    const result = await run(['subjects', 'list'], { url: server.base });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: BadRequestError: 400 Bad Request: sort must be one of score, -score\\u001b[31m\n',
    );
  });

  it('--debug adds the body the server sent, escaped', async () => {
    serveRefusal();
    const result = await run(['--debug', 'subjects', 'list'], { url: server.base });
    expect(result.code).toBe(1);
    const bodyLine = result.stderr.split('\n').find((line) => line.startsWith('body: '));
    expect(bodyLine).toBe(`body: ${JSON.stringify(refusal)}`);
    expect(result.stderr).not.toContain('\u001b');
  });
});

/** Resolves once `server` has a request (with real turns of the loop: the timers are fake). */
async function arrived(server: { hits: number }): Promise<void> {
  while (server.hits === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('a server that does not answer, on a terminal', () => {
  const server = useRealServer();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('after 2 s the status line says whom the request waits for; the answer takes it away', async () => {
    let answer: () => void = () => {};
    server.serve((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { io, stderr } = testIO({ url: server.base, terminal: { stderr: true } });
    const running = runCommandLine(['subjects', 'list'], io);
    await arrived(server);
    const host = new URL(server.base).host;
    await vi.advanceTimersByTimeAsync(1_999);
    expect(stderr()).not.toContain('waiting for');
    await vi.advanceTimersByTimeAsync(1);
    expect(stderr()).toBe(`\r\u001b[2Kwaiting for ${host}…`);
    answer();
    expect(await running).toBe(0);
    // Erased once answered; then the last word.
    expect(stderr()).toBe(`\r\u001b[2Kwaiting for ${host}…\r\u001b[2K0 subjects match\n`);
  });

  it('off a terminal: no such line', async () => {
    let answer: () => void = () => {};
    server.serve((_req, res) => {
      answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { io, stderr } = testIO({ url: server.base });
    const running = runCommandLine(['subjects', 'list'], io);
    await arrived(server);
    await vi.advanceTimersByTimeAsync(5_000);
    answer();
    expect(await running).toBe(0);
    expect(stderr()).toBe('');
  });
});

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
});
