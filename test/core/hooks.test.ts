import { inspect } from 'node:util';
import ky from 'ky';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  type ClientHooks,
  ConnectionError,
  MetricClient,
  MetricError,
  NotFoundError,
  ResponseValidationError,
} from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, recordingLogger, sequence, TEST_KEY, testClient, useMsw } from '../support.js';

const server = useMsw();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];
const ok = () => json(subjects);

/** Every request that reaches msw, whatever its path: proof of what was (not) sent. */
function everything(reply: () => Response = ok) {
  const seen: Request[] = [];
  server.use(
    http.all('*', ({ request }) => {
      seen.push(request);
      return reply();
    }),
  );
  return seen;
}

/** Everything about an error a user could print or ship to a log collector. */
const renderings = (error: unknown) => [
  String(error),
  (error as Error).message,
  (error as Error).stack ?? '',
  JSON.stringify(error),
  inspect(error, { depth: 10 }),
];

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

describe('a hook that throws', () => {
  for (const kind of ['beforeRequest', 'afterResponse'] as const) {
    it(`${kind}: MetricError with the cause, not retried, the key in no rendering`, async () => {
      const seen = everything(() => json({ message: 'down' }, { status: 503 }));
      const thrown = new Error(`signing failed for Bearer ${TEST_KEY}`);
      const hooks: ClientHooks = {
        [kind]: [
          () => {
            throw thrown;
          },
        ],
      };
      const error = await rejection(testClient({ hooks, maxRetries: 5 }).subjects.list());
      expect(error).toBeInstanceOf(MetricError);
      expect((error as Error).message).toMatch(new RegExp(`^The ${kind} hook threw: signing failed`));
      const cause = (error as Error).cause as Error;
      expect(cause).toBeInstanceOf(Error);
      expect(cause.message).toContain('signing failed for Bearer');
      // A beforeRequest failure sends nothing; an afterResponse one sent exactly one attempt.
      expect(seen).toHaveLength(kind === 'beforeRequest' ? 0 : 1);
      for (const text of renderings(error)) expect(text).not.toContain(TEST_KEY);
    });
  }

  it('an error whose properties throw (a cause getter, a symbol message) is still the hook’s MetricError, with no key set', async () => {
    const seen = everything();
    const throwingCause = Object.defineProperty(new Error('outer'), 'cause', {
      get() {
        throw new Error('getter boom');
      },
    });
    const symbolMessage = Object.assign(new Error(), { message: Symbol('s') });
    const symbolCause = new Error('outer', { cause: Object.assign(new Error(), { message: Symbol('s') }) });
    for (const thrown of [throwingCause, symbolMessage, symbolCause]) {
      let calls = 0;
      const hooks: ClientHooks = {
        beforeRequest: [
          () => {
            calls++;
            throw thrown;
          },
        ],
      };
      const error = await rejection(testClient({ apiKey: null, hooks, maxRetries: 2 }).subjects.list());
      expect(error).toBeInstanceOf(MetricError);
      expect((error as Error).message).toMatch(/^The beforeRequest hook threw: /);
      expect(calls).toBe(1);
    }
    expect(seen).toHaveLength(0);
  });

  it('names the reasons down its cause chain, as a connection error does', async () => {
    everything();
    const inner = Object.assign(new Error('token service refused'), { code: 'ECONNREFUSED' });
    const hooks: ClientHooks = {
      beforeRequest: [
        () => {
          throw new Error('signing failed', { cause: inner });
        },
      ],
    };
    const error = await rejection(testClient({ hooks }).subjects.list());
    expect((error as Error).message).toBe(
      'The beforeRequest hook threw: signing failed: token service refused (ECONNREFUSED)',
    );
  });

  it('a thrown string that quotes the key is kept out of the message too', async () => {
    everything();
    const hooks: ClientHooks = {
      beforeRequest: [
        () => {
          throw `no signature for ${TEST_KEY}`;
        },
      ],
    };
    const error = await rejection(testClient({ hooks }).subjects.list());
    expect(error).toBeInstanceOf(MetricError);
    expect((error as Error).message).toContain('no signature for');
    for (const text of renderings(error)) expect(text).not.toContain(TEST_KEY);
  });
});

describe("a hook that throws one of the SDK's own errors", () => {
  it('is still not retried (a ConnectionError from a token service the hook calls, say)', async () => {
    useFakeClock();
    const seen = everything();
    let calls = 0;
    const thrown = new ConnectionError('GET https://tokens.example.test failed: fetch failed (ECONNRESET)');
    const hooks: ClientHooks = {
      beforeRequest: [
        () => {
          calls++;
          throw thrown;
        },
      ],
    };
    // The clock moves on while any backoff waits, so a retry would be sent and counted.
    const error = await settleOnFakeClock(testClient({ hooks, maxRetries: 2 }).subjects.list());
    expect(error).toBeInstanceOf(MetricError);
    expect(calls).toBe(1);
    expect(seen).toHaveLength(0);
    // As for any other error a hook throws: wrapped, with the hook's error as the cause.
    expect((error as Error).cause).toBe(thrown);
  });

  it('is kept free of the key like any other (a MetricError quoting it, say)', async () => {
    everything();
    const hooks: ClientHooks = {
      afterResponse: [
        () => {
          throw new MetricError(`token refresh refused Bearer ${TEST_KEY}`);
        },
      ],
    };
    const error = await rejection(testClient({ hooks }).subjects.list());
    expect(error).toBeInstanceOf(MetricError);
    for (const text of renderings(error)) expect(text).not.toContain(TEST_KEY);
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
