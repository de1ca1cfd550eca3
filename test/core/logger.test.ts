import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  createLogger,
  type Logger,
  type LogLevel,
  loggableHeaders,
  logLevels,
} from '../../src/core/logger.js';
import { NotFoundError } from '../../src/index.js';
import { BASE, recordingLogger, TEST_KEY, testClient, useMsw } from '../support.js';
import { journal42On, withoutLogSettings } from './logger-setup.js';

const server = useMsw();
const journal42 = journal42On(server);
withoutLogSettings();

describe('createLogger', () => {
  it("'off' gives no logger at all", () => {
    expect(createLogger('off', recordingLogger().logger)).toBeUndefined();
  });

  const cases: Array<[LogLevel, Array<keyof Logger>]> = [
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ];
  it.each(cases)("'%s' passes on %o and drops the rest, with the prefix and details", (level, passed) => {
    const { lines, logger } = recordingLogger();
    const log = createLogger(level, logger)!;
    for (const name of ['error', 'warn', 'info', 'debug'] as const) log[name](`a ${name} line`, { n: name });
    expect(lines).toEqual(
      passed.map((name) => ({
        level: name,
        message: `[scholarly-metrics] a ${name} line`,
        details: { n: name },
      })),
    );
  });

  it('a client needs of its logger only the methods of the levels it logs at', async () => {
    server.use(http.get(`${BASE}/journals/42`, () => HttpResponse.json({ error: 'gone' }, { status: 404 })));
    const errors: string[] = [];
    const logger = { error: (message: string) => errors.push(message) } as unknown as Logger;
    const sdk = testClient({ logLevel: 'error', logger, maxRetries: 0 });
    await expect(sdk.journals.get(42)).rejects.toThrow(/404/);
    expect(errors).toEqual([expect.stringContaining('GET ')]);
    expect(() => testClient({ logLevel: 'warn', logger })).toThrow(/it lacks warn/);
  });

  it('writes to console when no logger is given', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    createLogger('debug', undefined)!.debug('hello', { a: 1 });
    expect(debug).toHaveBeenCalledWith('[scholarly-metrics] hello', { a: 1 });
  });

  it('a line without details is the message alone: no trailing undefined on the console', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    createLogger('info', undefined)!.info('hello');
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]).toEqual(['[scholarly-metrics] hello']);
  });

  it('lists the levels from quiet to chatty', () => {
    expect(logLevels).toEqual(['off', 'error', 'warn', 'info', 'debug']);
  });

  it("a logger that throws changes no call's outcome: the typed error, or the answer, as without it", async () => {
    const broken = (level: string) => () => {
      throw new Error(`logger.${level} broke`);
    };
    const logger: Logger = {
      error: broken('error'),
      warn: broken('warn'),
      info: broken('info'),
      debug: broken('debug'),
    };
    server.use(http.get(`${BASE}/subjects`, () => new HttpResponse('nope', { status: 404 })));
    const failed = testClient({ logLevel: 'error', logger, maxRetries: 0 }).subjects.list();
    await expect(failed).rejects.toBeInstanceOf(NotFoundError);
    journal42();
    let sent = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      sent++;
      return globalThis.fetch(input, init);
    };
    const answered = await testClient({ logLevel: 'debug', logger, fetch }).journals.get(42);
    expect([answered.id, sent]).toEqual([42, 1]);
  });

  it('an async logger that rejects leaves no unhandled rejection, and its lines are still written in order', async () => {
    const written: string[] = [];
    const rejecting = async (message: string) => {
      written.push(message);
      throw new Error('log sink down');
    };
    const logger: Logger = { error: rejecting, warn: rejecting, info: rejecting, debug: rejecting };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      server.use(http.get(`${BASE}/subjects`, () => new HttpResponse('nope', { status: 404 })));
      const failed = testClient({ logLevel: 'debug', logger, maxRetries: 0 }).subjects.list();
      await expect(failed).rejects.toBeInstanceOf(NotFoundError);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(written.map((line) => line.split(' ').slice(1, 3).join(' '))).toEqual([
      `GET ${BASE}/subjects`,
      `404 from`,
      `GET ${BASE}/subjects`,
    ]);
  });
});

describe('loggableHeaders', () => {
  it('redacts Authorization and Proxy-Authorization whatever their case, and keeps the rest', () => {
    const headers = new Headers({
      Authorization: `Bearer ${TEST_KEY}`,
      'PROXY-AUTHORIZATION': `Basic ${TEST_KEY}`,
      Accept: 'application/json',
      'x-team': 'a',
      'keep-alive': 'timeout=5',
    });
    expect(loggableHeaders(headers)).toEqual({
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      accept: 'application/json',
      'x-team': 'a',
      'keep-alive': 'timeout=5',
    });
  });

  it('redacts the other headers that carry credentials, which the key is not (apiKey: null, or a second secret)', () => {
    const credentials = ['Cookie', 'X-Api-Key', 'Api-Key', 'X-Auth-Token', 'X-Access-Token', 'X-Session-Id'];
    const headers = new Headers(credentials.map((name): [string, string] => [name, 'a-credential-value']));
    const logged = loggableHeaders(headers);
    expect(Object.values(logged)).toEqual(credentials.map(() => '[redacted]'));
    expect(JSON.stringify(logged)).not.toContain('a-credential-value');
  });
});
