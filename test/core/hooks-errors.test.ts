// A hook that throws: the client's MetricError, never retried, with the key in none of its renderings.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ClientHooks, ConnectionError, MetricError } from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { json, TEST_KEY, testClient, useMsw } from '../support.js';
import { everythingOn } from './hooks-setup.js';

const server = useMsw();
const everything = everythingOn(server);

/** Everything about an error a user could print or ship to a log collector. */
const renderings = (error: unknown) => [
  String(error),
  (error as Error).message,
  (error as Error).stack ?? '',
  JSON.stringify(error),
  inspect(error, { depth: 10 }),
];

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

  it('escapes what it says as a connection error does: no control sequence or bidi override acts', async () => {
    everything(() => json({ message: 'down' }, { status: 502 }));
    const serverText = 'maintenance \u001b[2J\u001b[31mnow\u202e';
    const hooks: ClientHooks = {
      afterResponse: [
        async ({ response }) => {
          if (!response.ok) throw new Error(`upstream: ${serverText}`);
        },
      ],
    };
    const error = await rejection(testClient({ hooks, maxRetries: 0 }).subjects.list());
    expect((error as Error).message).toBe(
      'The afterResponse hook threw: upstream: maintenance \\u001b[2J\\u001b[31mnow\\u202e',
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
