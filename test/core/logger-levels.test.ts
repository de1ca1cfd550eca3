// What a client logs at each logLevel, and METRIC_LOG's say in it: never the key.
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, type LoggedLine, recordingLogger, TEST_KEY, testClient, useMsw } from '../support.js';
import { journal42On, withoutLogSettings } from './logger-setup.js';

const server = useMsw();
const journal42 = journal42On(server);
withoutLogSettings();

/** The headers a request line logged (an empty object when there were none). */
const headersOf = (line: LoggedLine | undefined) => (line?.details?.headers ?? {}) as Record<string, string>;

describe("logLevel: 'debug'", () => {
  it('logs a line for each request, with headers whose authorization is [redacted], and never the key', async () => {
    journal42();
    server.use(http.get(`${BASE}/subjects`, () => json([])));
    const { lines, logger } = recordingLogger();
    const sdk = testClient({ logLevel: 'debug', logger, headers: { 'x-team': 'a' } });
    await sdk.journals.get(42);
    await sdk.subjects.list({ headers: { 'x-trace': 't1' } });
    const requests = lines.filter(
      (line) => line.level === 'debug' && /^\[scholarly-metrics\] GET /.test(line.message),
    );
    expect(requests.map((line) => line.message)).toEqual([
      `[scholarly-metrics] GET ${BASE}/journals/42`,
      `[scholarly-metrics] GET ${BASE}/subjects`,
    ]);
    for (const line of requests) {
      const headers = headersOf(line);
      expect(headers.authorization).toBe('[redacted]');
      expect(headers.accept).toBe('application/json');
      expect(headers['x-team']).toBe('a');
    }
    expect(headersOf(requests[1])['x-trace']).toBe('t1');
    expect(lines.some((line) => /200 from GET .*\/subjects/.test(line.message))).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('redacts an Authorization header given per request', async () => {
    journal42();
    const { lines, logger } = recordingLogger();
    await testClient({ apiKey: null, logLevel: 'debug', logger }).journals.get(42, {
      headers: { Authorization: `Bearer ${TEST_KEY}` },
    });
    const request = lines.find((line) => line.message.includes('GET '))!;
    expect(headersOf(request).authorization).toBe('[redacted]');
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('never logs the key when the server echoes it in a failure', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () =>
        json({ message: `bad key ${TEST_KEY}` }, { status: 401, headers: { 'x-echo': TEST_KEY } }),
      ),
    );
    const { lines, logger } = recordingLogger();
    await expect(testClient({ logLevel: 'debug', logger }).journals.get(42)).rejects.toThrow();
    expect(lines.some((line) => line.level === 'error')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('never logs the key when fetch fails with it in its message', async () => {
    const { lines, logger } = recordingLogger();
    const fetch = async () => {
      throw new TypeError(`bad header Bearer ${TEST_KEY}`);
    };
    await expect(
      testClient({ logLevel: 'debug', logger, fetch, maxRetries: 0 }).subjects.list(),
    ).rejects.toThrow();
    expect(lines.some((line) => line.level === 'error')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });
});

describe("logLevel: 'info'", () => {
  it('logs each retry with its reason, and no debug lines', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/subjects`, () => {
        calls++;
        return calls < 3
          ? json({ message: `overloaded ${TEST_KEY}` }, { status: 503, headers: { 'retry-after': '0' } })
          : json([]);
      }),
    );
    const { lines, logger } = recordingLogger();
    // Fake timers and no jitter: the logged waits are exactly p-retry's backoff.
    useFakeClock({ date: false });
    expect(await settleOnFakeClock(testClient({ logLevel: 'info', logger }).subjects.list())).toEqual([]);
    expect(calls).toBe(3);
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['info', `[scholarly-metrics] retrying GET ${BASE}/subjects in 500 ms`],
      ['info', `[scholarly-metrics] retrying GET ${BASE}/subjects in 1000 ms`],
    ]);
    expect(String(lines[0]!.details?.reason)).toContain('503');
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('logs the final failure at error level', async () => {
    server.use(http.get(`${BASE}/subjects`, () => new HttpResponse('nope', { status: 404 })));
    const { lines, logger } = recordingLogger();
    await expect(testClient({ logLevel: 'info', logger }).subjects.list()).rejects.toThrow();
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['error', `[scholarly-metrics] GET ${BASE}/subjects failed`],
    ]);
    expect(String(lines[0]!.details?.error)).toContain('404');
  });
});

describe("logLevel: 'error' and 'off'", () => {
  it("'error' logs failures only, not retries or requests", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/subjects`, () => {
        calls++;
        return json({}, { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    const { lines, logger } = recordingLogger();
    await expect(testClient({ logLevel: 'error', logger, maxRetries: 1 }).subjects.list()).rejects.toThrow();
    expect(calls).toBe(2);
    expect(lines.map((line) => line.level)).toEqual(['error']);
  });

  it("'off' (the default) logs nothing: not requests, retries nor failures", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/subjects`, () => {
        calls++;
        return json({}, { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    journal42();
    const { lines, logger } = recordingLogger();
    const spies = (['error', 'warn', 'info', 'debug', 'log'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => {}),
    );
    const sdk = testClient({ logger });
    await sdk.journals.get(42);
    await expect(sdk.subjects.list({ maxRetries: 1 })).rejects.toThrow();
    expect(calls).toBe(2);
    await testClient({ logLevel: 'off', logger }).journals.get(42);
    expect(lines).toEqual([]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

describe('METRIC_LOG', () => {
  it('METRIC_LOG=debug turns debug logging on', async () => {
    vi.stubEnv('METRIC_LOG', 'debug');
    journal42();
    const { lines, logger } = recordingLogger();
    await testClient({ logger }).journals.get(42);
    const request = lines.find((line) => line.message === `[scholarly-metrics] GET ${BASE}/journals/42`);
    expect(request?.level).toBe('debug');
    expect(headersOf(request).authorization).toBe('[redacted]');
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('METRIC_LOG=debug without a logger writes to console', async () => {
    vi.stubEnv('METRIC_LOG', 'debug');
    journal42();
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await testClient().journals.get(42);
    expect(debug).toHaveBeenCalled();
    expect(JSON.stringify(debug.mock.calls)).not.toContain(TEST_KEY);
  });

  it('the logLevel option wins over METRIC_LOG', async () => {
    vi.stubEnv('METRIC_LOG', 'debug');
    journal42();
    const { lines, logger } = recordingLogger();
    await testClient({ logLevel: 'off', logger }).journals.get(42);
    expect(lines).toEqual([]);
  });
});
