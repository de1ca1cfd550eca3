// Errors of the scholarly-metrics command: one line with the class and a hint, the exit code, and the
// usage errors of missing or refused settings. What a misbehaving server draws:
// errors-server.test.ts; Ctrl-C: errors-interrupted.test.ts; the report's own words: report.test.ts.
import { describe, expect, it } from 'vitest';
import { type ClientOptions, MetricClient } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_NO_ACCESS_API_KEY } from '../../src/testing/index.js';
import { UNKNOWN_KEY, useMockServer } from '../support.js';
import { jsonLines, run } from './helpers.js';

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
  });

  it('an empty --base-url (an unset variable expanded) is refused as such, METRIC_BASE_URL set or not (exit 2)', async () => {
    for (const url of [undefined, mock.server.url]) {
      const flag = await run(['subjects', 'list', '--base-url', ''], { url, key: MOCK_API_KEY });
      expect(flag.code).toBe(2);
      expect(flag.stderr).toBe('error: --base-url needs a URL, not an empty one\n');
    }
    expect(mock.api.requests).toHaveLength(0);
  });

  it('an id past the largest exact whole number is told so, not called no whole number (exit 2)', async () => {
    const huge = await run(['journals', 'get', '99999999999999999999'], { url: mock.server.url });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('expected a whole number, up to 9007199254740991.');
    const word = await run(['journals', 'get', 'abc'], { url: mock.server.url });
    expect(word.stderr).toContain('expected a whole number, e.g. 42.');
  });

  it('the output options are checked before the key: the line is mended first (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['papers', 'search', '--q', 'x', '--resume'], '--resume needs --output <file>'],
      [['papers', 'search', '--q', 'x', '--overwrite'], '--overwrite needs --output <file>'],
      [
        ['journals', 'list', '--format', 'parquet'],
        '--format parquet writes a file: add --output FILE.parquet',
      ],
      [['journals', 'list', '-o', ''], '--output needs a file path, not an empty one'],
      [['papers', 'get-many', '10.1/a', '--failed', ''], '--failed needs a file path, not an empty one'],
      [['papers', 'get-many', '--input', ''], '--input needs a file path, not an empty one'],
      [['journals', 'get', '1', '-o', '-'], '--output - is standard output: leave --output out instead'],
    ];
    for (const [args, message] of cases) {
      const result = await run(args, { url: mock.server.url, key: undefined });
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({
        args,
        code: 2,
        stderr: `error: ${message}\n`,
      });
    }
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
