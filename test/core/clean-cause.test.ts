// Causes cleaned of the key: an abort's reason, a failing fetch's error, a cause whose module cannot load.
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { explainCause } from '../../src/core/clean-cause.js';
import { redacted } from '../../src/core/redact.js';
import { AuthenticationError, ConnectionError, RequestAbortedError } from '../../src/index.js';
import { failure } from '../helpers/calls.js';
import { BASE, json, TEST_KEY, testClient, useMsw } from '../support.js';
import { expectNoKey, inspect } from './redact-setup.js';

const server = useMsw();

describe('an abort reason with the key in it', () => {
  it('a call aborted before and during its request: RequestAbortedError, its cause cleaned', async () => {
    server.use(http.get(`${BASE}/subjects`, () => new Promise<never>(() => {})));
    const before = await failure(
      testClient().subjects.list({ signal: AbortSignal.abort(new Error(`cancel ${TEST_KEY}`)) }),
    );
    const controller = new AbortController();
    const during = testClient().subjects.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error(`cancel ${TEST_KEY}`)), 20);
    for (const error of [before, await failure(during)]) {
      expect(error).toBeInstanceOf(RequestAbortedError);
      expectNoKey(error);
      expect(((error as Error).cause as Error).message).toBe(`cancel ${redacted}`);
    }
  });

  it('papers.getMany aborted before it starts and during its lookups: its cause cleaned too', async () => {
    server.use(http.get(`${BASE}/papers/*`, () => new Promise<never>(() => {})));
    const before = await failure(
      testClient().papers.getMany(['10.1000/a'], { signal: AbortSignal.abort(`cancel ${TEST_KEY}`) }),
    );
    const controller = new AbortController();
    const during = testClient().papers.getMany(['10.1000/a', '10.1000/b'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error(`cancel ${TEST_KEY}`)), 20);
    for (const error of [before, await failure(during)]) {
      expect(error).toBeInstanceOf(RequestAbortedError);
      expectNoKey(error);
    }
  });
});

describe('a fetch that fails with the key in its error', () => {
  it('an Error whose message holds the key → ConnectionError without it, cause included', async () => {
    const fetch = async () => {
      throw new TypeError(`Headers.append: "Bearer ${TEST_KEY}" is an invalid header value.`);
    };
    const error = await failure(testClient({ fetch, maxRetries: 0 }).subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoKey(error);
    const cause = (error as Error).cause as Error;
    expect(cause).toBeInstanceOf(Error);
    expect(cause.message).toContain(redacted);
    expect(inspect(cause)).not.toContain(TEST_KEY);
    expect((error as Error).message).toContain(redacted);
  });

  it('the key only in the stack of the thrown error', async () => {
    const fetch = async () => {
      const error = new Error('socket hang up');
      error.stack = `Error: socket hang up\n    at connect (Bearer ${TEST_KEY})`;
      throw error;
    };
    const error = await failure(testClient({ fetch, maxRetries: 0 }).subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoKey(error);
  });

  it('the key in the cause of the thrown error (as undici nests it) → no leak either', async () => {
    const fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: new Error(`connect ECONNREFUSED with Bearer ${TEST_KEY}`),
      });
    };
    const error = await failure(testClient({ fetch, maxRetries: 0 }).subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoKey(error);
  });

  it('the key beside a body of bytes or form fields (as wrappers of got or axios hold them) → shown safely', async () => {
    for (const body of [Buffer.from(`{"auth":"${TEST_KEY}"}`), new URLSearchParams({ key: TEST_KEY })]) {
      const fetch = async () => {
        throw Object.assign(new Error('request failed'), {
          options: { headers: { authorization: `Bearer ${TEST_KEY}` } },
          body,
          at: new Date(0),
        });
      };
      const error = await failure(testClient({ fetch, maxRetries: 0 }).subjects.list());
      expect(error).toBeInstanceOf(ConnectionError);
      expectNoKey(error);
      expect(((error as Error).cause as { at: Date }).at.getTime()).toBe(0);
    }
  });

  it('after a retry, the final error is clean too', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/subjects`, () => {
        calls++;
        return calls === 1
          ? json({ message: `busy ${TEST_KEY}` }, { status: 503, headers: { 'retry-after': '0' } })
          : json({ message: `bad key ${TEST_KEY}` }, { status: 401, headers: { 'x-echo': TEST_KEY } });
      }),
    );
    const error = await failure(testClient({ maxRetries: 2 }).subjects.list());
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error);
  });
});

describe('a cause cleaned when its module cannot load (an offline browser)', () => {
  it('gives an Error with the cause’s message, cleaned, instead of the load failure', async () => {
    const cause = Object.assign(new TypeError(`fetch failed for ${TEST_KEY}`), { detail: TEST_KEY });
    const unreachable = vi.fn(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    const clean = (await explainCause(cause, TEST_KEY, unreachable)).cause as Error;
    expect(unreachable).toHaveBeenCalledOnce();
    expect(clean).toBeInstanceOf(Error);
    expect(clean.message).toBe(`fetch failed for ${redacted}`);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(inspect(clean)).not.toContain('dynamically imported');
  });

  it('a connection failure without a key is described by the cause’s message, as online, the cause kept', async () => {
    const cause = new TypeError('Failed to fetch');
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const offline = await explainCause(cause, null, unreachable);
    expect(offline).toEqual({ cause, reason: 'Failed to fetch' });
    expect(offline.reason).toBe((await explainCause(cause, null)).reason);
  });

  it('a connection failure with no text of its own, when the module cannot load, is described by its type', async () => {
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    for (const cause of [Object.create(null), { [Symbol.toPrimitive]: () => Symbol('no text') }]) {
      expect((await explainCause(cause, TEST_KEY, unreachable)).reason).toBe('object');
      expect(await explainCause(cause, null, unreachable)).toEqual({ cause, reason: 'object' });
    }
  });

  it('loads the module when it can: the cause keeps its name and properties', async () => {
    const cause = Object.assign(new TypeError(`fetch failed for ${TEST_KEY}`), { code: 'E_NET' });
    const clean = (await explainCause(cause, TEST_KEY)).cause as TypeError & { code: string };
    expect(clean.name).toBe('TypeError');
    expect(clean.code).toBe('E_NET');
    expect(clean.message).not.toContain(TEST_KEY);
  });
});
