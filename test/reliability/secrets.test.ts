/**
 * The API key never leaves where it belongs (the Authorization header to the API's own origin):
 * not in any error of any fault, not in `util.inspect` with everything shown, not in debug logs,
 * not across a redirect to another origin, not even when the server echoes it back.
 */
import { format, inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricClient, MetricError } from '../../src/index.js';
import { thrown } from '../helpers/calls.js';
import { recordingLogger, TEST_KEY, testClient } from '../support.js';
import { catalogue, catalogueTestTimeoutMs, hangGuardMs } from './catalogue.js';
import { echo, type Handler, htmlPage, json, redirect, subjects, truncatedJson } from './fault-server.js';
import { HangError, settle, useFaultServers } from './harness.js';

const servers = useFaultServers();

/** Everything a user, a logger or an error tracker may turn an error into. */
function views(value: unknown): Record<string, string> {
  const out: Record<string, string> = {
    inspect: inspect(value, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }),
    format: format('%o', value),
    json: (() => {
      try {
        return JSON.stringify(value) ?? '';
      } catch (error) {
        return String(error);
      }
    })(),
  };
  if (value instanceof Error) {
    out.message = value.message;
    out.string = String(value);
    out.stack = value.stack ?? '';
    let cause = value.cause;
    for (let depth = 0; cause !== undefined && depth < 10; depth++) {
      out[`cause ${depth}`] = inspect(cause, { showHidden: true, depth: Number.POSITIVE_INFINITY });
      cause = (cause as { cause?: unknown } | null)?.cause;
    }
  }
  return out;
}

function expectNoKey(value: unknown, where: string) {
  for (const [view, text] of Object.entries(views(value))) {
    expect({ where, view, leaks: text.includes(TEST_KEY) }).toEqual({ where, view, leaks: false });
  }
}

describe.concurrent('every fault of the catalogue: no key in the error, nor in the debug log', () => {
  for (const entry of catalogue) {
    it(entry.fault, { timeout: catalogueTestTimeoutMs }, async () => {
      const prepared = await entry.prepare(servers);
      const { logger, rendered } = recordingLogger();
      const client = testClient({ ...entry.options, logLevel: 'debug', logger }, prepared);
      const result = await settle(() => client.subjects.list(), hangGuardMs);
      if (result.error instanceof HangError) throw result.error;
      if (!result.ok) {
        expect(result.error).toBeInstanceOf(MetricError);
        expectNoKey(result.error, entry.fault);
      }
      const lines = rendered();
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toContain(TEST_KEY);
      // The request line is logged with its headers, the Authorization one redacted.
      expect(lines.some((line) => line.includes('"authorization":"[redacted]"'))).toBe(true);
    });
  }
});

describe.concurrent('a server that echoes the key back: the error still does not carry it', () => {
  const bearer = `Bearer ${TEST_KEY}`;
  const echoed: Array<[string, Handler]> = [
    [
      '502 HTML page quoting the request headers',
      (req, res, attempt) =>
        htmlPage(502, `Bad Gateway for ${String(req.headers.authorization)}`, {
          'x-echo': String(req.headers.authorization),
        })(req, res, attempt),
    ],
    [
      '401 JSON naming the key',
      echo((req) => ({
        status: 401,
        body: { error: `invalid key ${req.headers.authorization}`, key: TEST_KEY },
      })),
    ],
    [
      '429 with the key in the body and a header, Retry-After far ahead',
      (req, res, attempt) =>
        json({ message: `limit for ${TEST_KEY}`, nested: [{ [TEST_KEY]: TEST_KEY }] }, 429, {
          'retry-after': '3600',
          'x-key': TEST_KEY,
        })(req, res, attempt),
    ],
    ['200 with the key in a wrong-typed field', json([{ ...subjects[0], id: bearer, name: TEST_KEY }])],
    ['200, not JSON, quoting the key', htmlPage(200, `Welcome ${TEST_KEY}`)],
    [
      '200, truncated JSON around the key',
      truncatedJson('honest-length', [{ ...subjects[0], name: `${TEST_KEY} ${TEST_KEY}` }]),
    ],
    ['500 JSON quoting the key, Retry-After: 0', json({ detail: bearer }, 500, { 'retry-after': '0' })],
  ];
  for (const [name, handler] of echoed) {
    it(name, async () => {
      const scenario = servers.scenario(handler);
      const { logger, rendered } = recordingLogger();
      const client = testClient({ maxRetries: 1, logLevel: 'debug', logger }, scenario);
      const result = await settle(() => client.subjects.list());
      expect(result.ok).toBe(false);
      expect(result.error).toBeInstanceOf(MetricError);
      expectNoKey(result.error, name);
      for (const line of rendered()) expect(line).not.toContain(TEST_KEY);
    });
  }
});

describe('redirects', () => {
  for (const status of [301, 302, 303, 307, 308] as const) {
    it(`${status} to another origin: refused, never sent there, and the error names no key`, async () => {
      const target = servers.other.scenario(json(subjects));
      const source = servers.scenario(redirect(status, `${target.base}/subjects`));
      const result = await settle(() => testClient({}, source).subjects.list());
      expect(result.ok).toBe(false);
      expect(result.error).toBeInstanceOf(MetricError);
      expect((result.error as Error).message).toMatch(/Refused a \d{3} redirect .* to another origin/);
      expectNoKey(result.error, `${status} redirect`);
      expect(source.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
      // Not retried: the same request would only be redirected again.
      expect(source.attempts).toBe(1);
      expect(target.attempts).toBe(0);
    });
  }
});

describe('util.inspect and JSON of what a user holds', () => {
  it('the client, a page, a page promise: no key with showHidden, getters and full depth', async () => {
    const scenario = servers.scenario(
      json({ data: [{ id: 1, title: 'T', authors: 'A', year: 2020, citations: 1 }], total: 1 }),
    );
    const client = testClient({ logLevel: 'debug', logger: recordingLogger().logger }, scenario);
    const pending = client.journals.papers(1);
    const page = await pending;
    for (const [name, value] of Object.entries({ client, pending, page, journals: client.journals })) {
      expectNoKey(value, name);
    }
  });
});

describe('opt-in logging', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('nothing is logged by default', async () => {
    const scenario = servers.scenario(json(subjects));
    const { logger, lines } = recordingLogger();
    await testClient({ logger }, scenario).subjects.list();
    expect(lines).toEqual([]);
  });

  it('METRIC_LOG=debug turns it on, to console by default, with the Authorization header redacted', async () => {
    vi.stubEnv('METRIC_LOG', 'debug');
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const scenario = servers.scenario(
      json({ message: 'overloaded' }, 503, { 'retry-after': '0' }),
      json(subjects),
    );
    await testClient({}, scenario).subjects.list();
    const text = debug.mock.calls.map((call) => format(...call)).join('\n');
    expect(text).toContain('[scholarly-metrics] GET');
    expect(text).toContain("authorization: '[redacted]'");
    expect(text).not.toContain(TEST_KEY);
  });
});

describe('in a browser', () => {
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });

  it('a key is refused unless the user opts in; apiKey: null behind a proxy needs no opt-in', () => {
    (globalThis as { document?: unknown }).document = {};
    const base = 'https://api.example.test/api/v1';
    const refusal = thrown(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: base }), MetricError);
    expect((refusal as Error).message).toMatch(/dangerouslyAllowBrowser/);
    expectNoKey(refusal, 'browser refusal');
    expect(
      () => new MetricClient({ apiKey: TEST_KEY, baseUrl: base, dangerouslyAllowBrowser: true }),
    ).not.toThrow();
    expect(() => new MetricClient({ apiKey: null, baseUrl: base })).not.toThrow();
  });
});
