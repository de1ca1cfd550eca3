import ky from 'ky';
import { describe, expect, it } from 'vitest';
import {
  type ClientHooks,
  MetricClient,
  MetricError,
  NotFoundError,
  ResponseValidationError,
} from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, recordingLogger, sequence, TEST_KEY, testClient, useMsw } from '../support.js';
import { everythingOn, ok, subjects } from './hooks-setup.js';

const server = useMsw();
const everything = everythingOn(server);

describe('hooks run on every attempt', () => {
  it('a 503 then a 200 runs each hook twice, seeing each response', async () => {
    // Fake timers and no jitter: the retry's 500 ms backoff is skipped, not waited for.
    useFakeClock();
    const { handler, seen } = sequence('/subjects', [() => json({ message: 'down' }, { status: 503 }), ok]);
    server.use(handler);
    const before: number[] = [];
    const after: number[] = [];
    const hooks: ClientHooks = {
      beforeRequest: [({ retryCount }) => void before.push(retryCount)],
      afterResponse: [({ response }) => void after.push(response.status)],
    };
    expect(await settleOnFakeClock(testClient({ hooks }).subjects.list())).toEqual(subjects);
    expect(seen).toHaveLength(2);
    expect(before).toHaveLength(2);
    expect(after).toEqual([503, 200]);
  });
});

describe('beforeRequest', () => {
  it('a returned Request replaces the one sent: the server sees its extra header', async () => {
    const seen = everything();
    const hooks: ClientHooks = {
      beforeRequest: [
        ({ request }) => {
          const headers = new Headers(request.headers);
          headers.set('x-signature', 'sig-1');
          return new Request(request, { headers });
        },
      ],
    };
    expect(await testClient({ hooks }).subjects.list()).toEqual(subjects);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('x-signature')).toBe('sig-1');
    // The replacement was built from the SDK's request: the key is still there.
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('a header set in place (the documented example) is sent too', async () => {
    const seen = everything();
    const hooks: ClientHooks = { beforeRequest: [({ request }) => request.headers.set('x-trace-id', 't-9')] };
    await testClient({ hooks }).subjects.list();
    expect(seen[0]!.headers.get('x-trace-id')).toBe('t-9');
  });

  it('a returned Response short-circuits: nothing is sent, and the Response is validated', async () => {
    const seen = everything(() => json({ message: 'must not be reached' }, { status: 500 }));
    const cached: ClientHooks = { beforeRequest: [() => json(subjects)] };
    expect(await testClient({ hooks: cached }).subjects.list()).toEqual(subjects);
    const invalid: ClientHooks = { beforeRequest: [() => json([{ id: 'one' }])] };
    const error = await rejection(testClient({ hooks: invalid }).subjects.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(seen).toHaveLength(0);
  });
});

describe('afterResponse', () => {
  it("a returned Response replaces the server's: a 404 becomes NotFoundError", async () => {
    const seen = everything();
    const hooks: ClientHooks = {
      afterResponse: [() => json({ error: 'not_found', message: 'gone' }, { status: 404 })],
    };
    const error = await rejection(testClient({ hooks, maxRetries: 3 }).subjects.list());
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).body).toEqual({ error: 'not_found', message: 'gone' });
    expect(seen).toHaveLength(1);
  });

  it("a returned 2xx replaces the server's body, and is what gets validated", async () => {
    everything();
    const other = [{ ...subjects[0], id: 2, name: 'Chemistry' }];
    const replaced: ClientHooks = { afterResponse: [() => json(other)] };
    expect(await testClient({ hooks: replaced }).subjects.list()).toEqual(other);
    const broken: ClientHooks = { afterResponse: [() => json({ not: 'a list' })] };
    expect(await rejection(testClient({ hooks: broken }).subjects.list())).toBeInstanceOf(
      ResponseValidationError,
    );
  });

  it("ky.retry()'s marker retries nothing: the server's answer stands, sent once", async () => {
    const seen = everything();
    const hooks: ClientHooks = { afterResponse: [() => ky.retry()] };
    expect(await testClient({ hooks, maxRetries: 3 }).subjects.list()).toEqual(subjects);
    expect(seen).toHaveLength(1);
  });

  it('anything else a hook returns leaves the answer as it is', async () => {
    everything();
    const hooks = { afterResponse: [() => ({ status: 404 }), () => 'text', () => null] };
    expect(await testClient({ hooks: hooks as ClientHooks }).subjects.list()).toEqual(subjects);
  });
});
describe('the debug log', () => {
  it('shows the request as the hooks left it, with the key redacted in any header', async () => {
    const seen = everything();
    const { lines, logger } = recordingLogger();
    const hooks: ClientHooks = {
      beforeRequest: [
        ({ request }) => {
          const headers = new Headers(request.headers);
          headers.delete('authorization');
          headers.set('x-api-key', TEST_KEY);
          headers.set('x-note', `copied ${TEST_KEY}`);
          return new Request(request, { headers });
        },
      ],
    };
    await testClient({ hooks, logLevel: 'debug', logger }).subjects.list();
    // The hook did move the key: the server got it in x-api-key.
    expect(seen[0]!.headers.get('x-api-key')).toBe(TEST_KEY);
    const sent = lines.find(({ message }) => message === `[scholarly-metrics] GET ${BASE}/subjects`);
    expect(sent).toBeDefined();
    const headers = (sent!.details as { headers: Record<string, string> }).headers;
    expect(headers['x-api-key']).toBe('[redacted]');
    // A header named as no credential is cut where it holds the key.
    expect(headers['x-note']).toBe('copied [redacted]');
    expect(headers.authorization).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain(TEST_KEY);
  });

  it('keeps the key out when a hook moves it into the query string', async () => {
    const seen = everything();
    const { lines: logged, logger } = recordingLogger();
    const hooks: ClientHooks = {
      beforeRequest: [
        ({ request }) => {
          const url = new URL(request.url);
          url.searchParams.set('api_key', TEST_KEY);
          return new Request(url, request);
        },
      ],
    };
    await testClient({ hooks, logLevel: 'debug', logger }).subjects.list();
    expect(new URL(seen[0]!.url).searchParams.get('api_key')).toBe(TEST_KEY);
    const lines = logged.map(({ message, details }) => JSON.stringify([message, details]));
    expect(lines.some((line) => line.includes('/subjects?api_key='))).toBe(true);
    for (const line of lines) expect(line).not.toContain(TEST_KEY);
  });
});

describe('an invalid hooks option', () => {
  const invalid: Array<[string, unknown]> = [
    ['a function', () => {}],
    ['a string', 'beforeRequest'],
    ['null', null],
    ['42', 42],
    ['beforeRequest not an array', { beforeRequest: () => {} }],
    ['a non-function beforeRequest entry', { beforeRequest: [() => {}, 'x'] }],
    ['a null afterResponse entry', { afterResponse: [null] }],
    ['an object afterResponse entry', { afterResponse: [{}] }],
    ['a hook kind the client does not run', { beforeRetry: [() => {}] }],
    ['a misspelt kind', { beforeRequests: [() => {}] }],
  ];
  it.each(invalid)('%s → MetricError at construction', (_label, hooks) => {
    expect(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, hooks: hooks as ClientHooks })).toThrow(
      MetricError,
    );
  });

  it('an array of hooks (the hooks themselves, not the object) → MetricError at construction', () => {
    // Accepted silently, `hooks: [fn]` would drop the hook without a word.
    const hooks = [() => {}] as unknown as ClientHooks;
    expect(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, hooks })).toThrow(MetricError);
  });
});
