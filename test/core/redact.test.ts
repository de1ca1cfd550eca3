import util from 'node:util';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { explainCause } from '../../src/core/clean-cause.js';
import { maxBodyDepth } from '../../src/core/depth.js';
import {
  mentionsSecret,
  redacted,
  redactHeaders,
  redactSecrets,
  redactText,
  redactValue,
} from '../../src/core/redact.js';
import * as redactCauseModule from '../../src/core/redact-cause.js';
import {
  APIError,
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  RequestAbortedError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, journalProfile, json, recordingLogger, TEST_KEY, testClient, useMsw } from '../support.js';

/** The walk with the redactor its loader (clean-cause.ts) hands over. */
const redactCause = (error: unknown, secret: string | null) =>
  redactCauseModule.redactCause(error, secret, { redactText, redactHeaders });

const server = useMsw();

const inspect = (value: unknown) => util.inspect(value, { depth: 10, showHidden: true });

/** Every way an error is shown or serialized; none may contain the key. */
function views(error: unknown): Record<string, string> {
  const e = error as Error & { body?: unknown; headers?: Headers; issues?: unknown };
  return {
    message: e.message,
    string: String(e),
    json: JSON.stringify(e),
    inspect: inspect(e),
    stack: e.stack ?? '',
    body: typeof e.body === 'string' ? e.body : JSON.stringify(e.body ?? null),
    headers: e.headers ? JSON.stringify([...e.headers]) : '',
    issues: JSON.stringify(e.issues ?? null),
    cause: inspect(e.cause),
  };
}

function expectNoKey(error: unknown, key = TEST_KEY) {
  for (const [view, text] of Object.entries(views(error))) {
    expect({ view, leaks: text.includes(key) }).toEqual({ view, leaks: false });
  }
}

async function failure(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('redact helpers', () => {
  it('redactText replaces every occurrence, and leaves text without the secret alone', () => {
    expect(redactText(`a ${TEST_KEY} b ${TEST_KEY}`, TEST_KEY)).toBe(`a ${redacted} b ${redacted}`);
    expect(redactText('nothing here', TEST_KEY)).toBe('nothing here');
    expect(redactText(`a ${TEST_KEY}`, null)).toBe(`a ${TEST_KEY}`);
    expect(redacted).toBe('[redacted]');
  });

  it('redactSecrets cuts several secrets in one pass: one inside another, or inside the word, leaves nothing', () => {
    const secrets = ['S3cret', 'S3cret-p@w', 'red'];
    expect(redactSecrets('pw=S3cret-p@w user=red', secrets)).toBe(`pw=${redacted} user=${redacted}`);
    expect(redactSecrets('pw=S3cret%2Dp%40w, S3cret alone', secrets)).toBe(
      `pw=${redacted}, ${redacted} alone`,
    );
    expect(redactSecrets('nothing here', [])).toBe('nothing here');
    // Another set of secrets, then the first again: each is found.
    expect(redactSecrets('a TEST_KEY-1 b', ['TEST_KEY-1'])).toBe(`a ${redacted} b`);
    expect(redactSecrets('pw=S3cret-p@w', secrets)).toBe(`pw=${redacted}`);
  });

  it('redactValue deep-copies, replacing the secret in strings and keys at any depth', () => {
    const input = {
      message: `bad key ${TEST_KEY}`,
      [`k_${TEST_KEY}`]: [1, null, true, { [TEST_KEY]: `${TEST_KEY}${TEST_KEY}` }],
      n: 5,
    };
    const output = redactValue(input, TEST_KEY);
    expect(output).toEqual({
      message: `bad key ${redacted}`,
      [`k_${redacted}`]: [1, null, true, { [redacted]: `${redacted}${redacted}` }],
      n: 5,
    });
    expect(JSON.stringify(input)).toContain(TEST_KEY); // the input is untouched
    expect(redactValue(input, null)).toBe(input);
  });

  it('redactHeaders returns the same Headers when nothing leaks, a clean copy otherwise', () => {
    const clean = new Headers({ 'x-a': '1' });
    expect(redactHeaders(clean, TEST_KEY)).toBe(clean);
    const leaking = new Headers({ 'x-echo': `Bearer ${TEST_KEY}`, 'x-b': '2' });
    const out = redactHeaders(leaking, TEST_KEY);
    expect(out.get('x-echo')).toBe(`Bearer ${redacted}`);
    expect(out.get('x-b')).toBe('2');
  });

  it('redactCause returns the error itself when clean, a stand-in with name, message and stack redacted otherwise', () => {
    const clean = new TypeError('fetch failed');
    expect(redactCause(clean, TEST_KEY)).toBe(clean);
    const dirty = new TypeError(`header Bearer ${TEST_KEY} is invalid`);
    const out = redactCause(dirty, TEST_KEY) as Error;
    expect(out).not.toBe(dirty);
    expect(out.name).toBe('TypeError');
    expect(out.message).toBe(`header Bearer ${redacted} is invalid`);
    expect(out.stack).not.toContain(TEST_KEY);
    expect(redactCause('a string', TEST_KEY)).toBe('a string');
  });
});

describe('a server that echoes the key', () => {
  it('in a JSON error body', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () =>
        json(
          { message: `bad key ${TEST_KEY}`, error: { detail: TEST_KEY, [TEST_KEY]: [TEST_KEY] } },
          { status: 401 },
        ),
      ),
    );
    const error = await failure(testClient().journals.get(42));
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error);
    expect((error as APIError).message).toBe(`401 Unauthorized: bad key ${redacted}`);
    expect((error as APIError).body).toEqual({
      message: `bad key ${redacted}`,
      error: { detail: redacted, [redacted]: [redacted] },
    });
  });

  it('in a text error body', async () => {
    server.use(
      http.get(
        `${BASE}/subjects`,
        () => new HttpResponse(`<html>key ${TEST_KEY} refused</html>`, { status: 500 }),
      ),
    );
    const error = await failure(testClient({ maxRetries: 0 }).subjects.list());
    expect(error).toBeInstanceOf(InternalServerError);
    expectNoKey(error);
    expect((error as APIError).body).toBe(`<html>key ${redacted} refused</html>`);
    expect((error as APIError).message).toContain(redacted);
  });

  it('in a response header value', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () =>
        json(
          { message: 'no' },
          { status: 403, headers: { 'x-echo-authorization': `Bearer ${TEST_KEY}`, 'x-id': 'r1' } },
        ),
      ),
    );
    const error = (await failure(testClient().journals.get(42))) as APIError;
    expectNoKey(error);
    expect(error.headers.get('x-echo-authorization')).toBe(`Bearer ${redacted}`);
    expect(error.headers.get('x-id')).toBe('r1');
  });

  it('in a response header name', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () =>
        json({ message: 'no' }, { status: 403, headers: { [`x-${TEST_KEY}`]: '1' } }),
      ),
    );
    const error = await failure(testClient().journals.get(42));
    expect(error).toBeInstanceOf(APIError);
    expectNoKey(error);
  });

  it('in a 200 body that fails validation (wrong-typed field, nested key, raw body)', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () =>
        json({
          ...journalProfile,
          metric_score: TEST_KEY,
          oa: { [TEST_KEY]: TEST_KEY },
          description: `key=${TEST_KEY}`,
        }),
      ),
    );
    const error = (await failure(testClient().journals.get(42))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['metric_score', 'oa']);
    expect(error.message).toContain(redacted);
    expect(error.body).toContain(redacted);
  });

  it('in a 200 body that is not JSON', async () => {
    server.use(
      http.get(
        `${BASE}/subjects`,
        () => new HttpResponse(`<html>welcome ${TEST_KEY}</html>`, { status: 200 }),
      ),
    );
    const error = (await failure(testClient().subjects.list())) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
    expect(error.body).toBe(`<html>welcome ${redacted}</html>`);
  });

  it('in an element of a 200 list that fails validation', async () => {
    server.use(
      http.get(`${BASE}/subjects`, () =>
        json([
          {
            id: 1,
            name: 'x',
            slug: 'y',
            journals: 1,
            papers: 1,
            citations: [TEST_KEY],
            [TEST_KEY]: { [TEST_KEY]: 1 },
          },
        ]),
      ),
    );
    const error = await failure(testClient().subjects.list());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expectNoKey(error);
  });

  // A refused value is shown in the message shortened to 40 characters. Shortening must not cut the
  // key in a way that leaves most of it visible (redaction of the whole key no longer matches then).
  it.each([0, 8, 16, 20, 24, 30, 36])(
    'in a long wrong-typed value, with %i characters before the key, shows no large part of the key',
    async (padding) => {
      const value = `${'x'.repeat(padding)}${TEST_KEY} and more text after it`;
      server.use(
        http.get(`${BASE}/subjects`, () =>
          json([{ id: 1, name: 'x', slug: 'y', journals: value, papers: 1, citations: 1 }]),
        ),
      );
      const error = (await failure(testClient().subjects.list())) as ResponseValidationError;
      expect(error).toBeInstanceOf(ResponseValidationError);
      // The key's secret part, after its `sk_test_` prefix, in any 8-character piece.
      const secret = TEST_KEY.slice('sk_test_'.length);
      const pieces = Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
      for (const [view, text] of Object.entries(views(error))) {
        for (const piece of pieces)
          expect({ view, piece, leaks: text.includes(piece) }).toMatchObject({ leaks: false });
      }
    },
  );
});

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

describe('the client itself', () => {
  it('util.inspect and JSON.stringify of the client never show the key', async () => {
    const sdk = testClient({ headers: { 'x-team': 'a' } });
    expect(inspect(sdk)).not.toContain(TEST_KEY);
    expect(JSON.stringify(sdk)).not.toContain(TEST_KEY);
    for (const resource of [sdk.journals, sdk.papers, sdk.authors, sdk.subjects, sdk.countries]) {
      expect(inspect(resource)).not.toContain(TEST_KEY);
    }
    // And the key is really in use by that client.
    const seen: Request[] = [];
    server.use(
      http.get(`${BASE}/subjects`, ({ request }) => {
        seen.push(request);
        return json([]);
      }),
    );
    await sdk.subjects.list();
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('a PagePromise and a Page never show the key', async () => {
    server.use(http.get(`${BASE}/papers`, () => json({ data: [{ n: 1 }], total: 1 })));
    const promise = testClient().papers.search({ q: 'x' });
    expect(inspect(promise)).not.toContain(TEST_KEY);
    const page = await promise;
    expect(inspect(page)).not.toContain(TEST_KEY);
    expect(JSON.stringify(page)).not.toContain(TEST_KEY);
  });
});

describe('a key pasted into a parameter', () => {
  it('is cut from the refusal', async () => {
    const error = (await testClient()
      .papers.get(TEST_KEY)
      .catch((e: unknown) => e)) as InvalidParameterError;
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error.parameter).toBe('doi');
    expect(error.message).not.toContain(TEST_KEY);
    expect(inspect(error)).not.toContain(TEST_KEY);
  });

  // A message quotes 40 characters of a value at most: a longer key is cut, and must still go.
  const longKey = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyz0123456789';
  const longKeyClient = () => testClient({ apiKey: longKey });
  const refusal = (promise: PromiseLike<unknown>) =>
    Promise.resolve(promise).then(
      () => expect.unreachable('refused'),
      (e: unknown) => e as InvalidParameterError,
    );

  it.each([
    ['a DOI', () => longKeyClient().papers.get(longKey)],
    ['a query value', () => longKeyClient().papers.search({ year: longKey as never })],
    [
      'a DOI of getMany',
      () =>
        longKeyClient()
          .papers.getMany([longKey])
          .then((r) => Promise.reject(r[0]?.error)),
    ],
  ])('a long key, cut short in the message, is cut from it: %s', async (_what, call) => {
    const error = await refusal(call());
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error.message).toContain(redacted);
    expect(inspect(error)).not.toContain(longKey.slice(0, 12));
  });

  it.each([
    ['a parameter name', () => testClient().papers.search({ [TEST_KEY]: 1 } as never)],
    ['a request option name', () => testClient().journals.get(42, { [TEST_KEY]: 1 } as never)],
    ['a getMany option name', () => testClient().papers.getMany(['10.1000/x'], { [TEST_KEY]: 1 } as never)],
  ])('a key given as %s is cut from the message and from `parameter`', async (_what, call) => {
    const error = await refusal(call());
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error.parameter).toBe(redacted);
    expect(inspect(error)).not.toContain(TEST_KEY);
    expect(JSON.stringify(error)).not.toContain(TEST_KEY);
  });
});

describe('a cut-off key', () => {
  it('is redacted from its first twelve characters on', () => {
    const long = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyz';
    expect(redactText(`got "${long.slice(0, 30)}…"`, long)).toBe(`got "${redacted}…"`);
    expect(redactText(`${long.slice(0, 11)} stays`, long)).toBe(`${long.slice(0, 11)} stays`);
    expect(redactText(`a ${long} b ${long.slice(0, 20)}`, long)).toBe(`a ${redacted} b ${redacted}`);
  });
});

describe('a long key', () => {
  // Long enough that one expression for it is more than the engine compiles (it threw a SyntaxError).
  const visible = 'sk_live_AbC.d+e/f=g$^*?(x)[y]{z}|\\~!@#%&\'"<>:;,`';
  const key = visible.repeat(Math.ceil(4096 / visible.length)).slice(0, 4096);
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it.each([
    ['as is', key],
    ['percent-encoded', encodeURIComponent(key)],
    ['JSON-escaped', JSON.stringify(key).slice(1, -1)],
    ['base64 `Bearer <key>`', base64(`Bearer ${key}`)],
  ])('%s: removed whole', (_how, text) => {
    const out = redactText(`before ${text} after`, key);
    // Base64 keeps what encodes `Bearer ` (ten characters) and at most three around the key's own.
    expect(out).toMatch(/^before [A-Za-z0-9+/]{0,11}\[redacted\][A-Za-z0-9+/=]{0,3} after$/);
  });

  it('cut short: removed from its start', () => {
    expect(redactText(`got "${encodeURIComponent(key.slice(0, 3000))}…"`, key)).toBe(`got "${redacted}…"`);
  });

  it('a 401 that echoes it is an AuthenticationError without it', async () => {
    server.use(http.get(`${BASE}/journals`, () => json({ error: `bad key ${key}` }, { status: 401 })));
    const error = await failure(testClient({ apiKey: key }).journals.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error, key.slice(0, 40));
  });
});

describe('an escape that could be read two ways, where the key is matched piece by piece', () => {
  // Past the 28th character: beyond the start and across the boundary of the next piece.
  it.each([
    ['a `%25` in the key', `${'a'.repeat(27)}%2541${'b'.repeat(20)}`, (key: string) => key],
    ['a run of backslashes, JSON-escaped', `${'a'.repeat(26)}\\\\\\${'b'.repeat(20)}`, JSON.stringify],
  ])('%s: removed whole', (_how, key, write) => {
    const text = write(key).replace(/^"|"$/g, '');
    expect(redactText(`before ${text} after`, key)).toBe(`before ${redacted} after`);
  });
});

describe('the key however it is written', () => {
  const key = 'sk_live_a/b+c&d"e%f<g>h~i';
  const written: Record<string, string> = {
    'percent, upper case': encodeURIComponent(key),
    'percent, lower case': encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase()),
    'percent-encoded twice': encodeURIComponent(encodeURIComponent(key)),
    'form encoding': new URLSearchParams({ k: key }).toString().slice(2),
    'JSON \\/ and \\"': JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    'JSON \\u escapes': [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    'HTML named entities': key
      .replace('&', '&amp;')
      .replace('"', '&quot;')
      .replace('<', '&lt;')
      .replace('>', '&gt;'),
    'HTML numeric references': [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    'one character encoded past the twelfth': `${key.slice(0, 14)}%${key.charCodeAt(14).toString(16)}${key.slice(15)}`,
    // A JSON-escaped key put into a URL, which percent-encodes the `"` but keeps the backslash, and
    // the same escaped key percent-encoded whole (found by the property test in test/reliability).
    'JSON escape, then a URL query': new URL(`http://h/?k=${JSON.stringify(key).slice(1, -1)}`).search.slice(
      3,
    ),
    'JSON escape, then percent-encoded': encodeURIComponent(JSON.stringify(key).slice(1, -1)),
  };
  for (const [how, text] of Object.entries(written)) {
    it(`${how}: removed, the text around it kept`, () => {
      expect(redactText(`before ${text} after`, key)).toBe(`before ${redacted} after`);
    });
  }

  it('cut short in any encoding, from its twelfth character on', () => {
    const cut = encodeURIComponent(key.slice(0, 13));
    expect(redactText(`key=${cut}…`, key)).toBe(`key=${redacted}…`);
  });

  it('a text that shares fewer than twelve characters with it is left alone', () => {
    expect(redactText('sk_live_a/b is a prefix', key)).toBe('sk_live_a/b is a prefix');
  });
});

describe('the key base64-encoded', () => {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  // A key whose base64 holds `+` and `/`, which a URL then percent-encodes.
  const key = 'sk_live_~~>>??ab12cd34ef56';
  /**
   * An encoded text with everything that encodes the key gone: what is left before the marker encodes
   * `prefix` (and at most a character of the key), and at most three characters follow it.
   */
  const redactedFrom = (prefix: string) =>
    new RegExp(
      `^before [A-Za-z0-9+/_-]{0,${Math.ceil((prefix.length * 4) / 3) + 1}}\\[redacted\\][A-Za-z0-9+/=_-]{0,3} after$`,
    );
  const forms: Record<string, [prefix: string, encoded: string]> = {
    'the key alone': ['', base64(key)],
    '`Bearer <key>`': ['Bearer ', base64(`Bearer ${key}`)],
    '`Authorization: Bearer <key>`': ['Authorization: Bearer ', base64(`Authorization: Bearer ${key}`)],
    'Basic auth `user:<key>`': ['user:', base64(`user:${key}`)],
    'the URL alphabet, unpadded': ['Bearer ', Buffer.from(`Bearer ${key}`).toString('base64url')],
    'then percent-encoded': ['Bearer ', encodeURIComponent(base64(`Bearer ${key}`))],
  };
  for (const [how, [prefix, encoded]] of Object.entries(forms)) {
    it(`${how}: removed, the text around it kept`, () => {
      expect(base64(key)).toMatch(/[+/]/);
      const out = redactText(`before ${encoded} after`, key);
      expect(out).toMatch(redactedFrom(prefix));
    });
  }

  it('cut short, from its twelfth character on', () => {
    const cut = base64(key).slice(0, 14);
    expect(redactText(`got ${cut}…`, key)).toBe(`got ${redacted}…`);
  });

  it('base64 of other text is left alone', () => {
    const other = base64('Bearer sk_live_somebody_elses_key');
    expect(redactText(`token ${other}`, key)).toBe(`token ${other}`);
  });

  it("in an error body, in a log line and never in the cache's store", async () => {
    const echo = base64(`Bearer ${TEST_KEY}`);
    const core = base64(TEST_KEY).slice(0, 16);
    server.use(
      http.get(`${BASE}/journals/7`, () => json({ message: `you sent ${echo}` }, { status: 401 })),
      http.get(`${BASE}/journals/8`, () => json({ ...journalProfile, id: 8, description: echo })),
      http.get(`${BASE}/journals/9`, () => json({ ...journalProfile, id: 9 })),
    );
    const { lines: logged, logger } = recordingLogger();
    const entries = new Map<string, string>();
    const store = {
      get: (key: string) => entries.get(key),
      set: (key: string, value: string) => entries.set(key, value),
      delete: (key: string) => entries.delete(key),
      clear: () => entries.clear(),
    };
    const traced = testClient({ logger, logLevel: 'debug', cache: { store } });
    const error = (await failure(traced.journals.get(7))) as APIError;
    expect(error).toBeInstanceOf(AuthenticationError);
    for (const text of Object.values(views(error))) expect(text).not.toContain(core);
    expect(error.message).toContain(redacted);
    await traced.journals.get(8);
    expect(logged.length).toBeGreaterThan(0);
    await traced.journals.get(9);
    const lines = logged.map(({ message, details }) => `${message} ${JSON.stringify(details)}`);
    expect(lines.join('\n')).toContain(`you sent`);
    for (const line of lines) expect(line).not.toContain(core);
    // The clean answer is kept; the one that echoed the key is not (`#…` keys mark flights, not answers).
    const kept = [...entries.keys()].filter((key) => !key.includes('#'));
    expect(kept.filter((key) => /journals\/(8|9)$/.test(key)).map((key) => key.slice(-1))).toEqual(['9']);
    expect([...entries.values()].join('\n')).not.toContain(core);
  });
});

describe('the look before the pattern', () => {
  const secret = 'Bearer sk_live_5c8e2a7f91d4';
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  it('finds the secret written as is, with + for a space, or with any escape in the text', () => {
    expect(redactText(`echo: ${secret}`, secret)).toBe(`echo: ${redacted}`);
    expect(redactText(`q=${secret.replace(' ', '+')}`, secret)).toBe(`q=${redacted}`);
    expect(redactText(`echo: ${secret.replace('k', '%6b')}`, secret)).toBe(`echo: ${redacted}`);
    expect(redactText(`"${secret.replace('_', '\\u005f')}"`, secret)).toBe(`"${redacted}"`);
    expect(redactText(`x${base64(secret)}x`, secret)).not.toContain(base64(secret).slice(4, 20));
  });

  it('leaves a text that cannot hold it as it is', () => {
    const text = JSON.stringify({ id: 7, name: 'Journal of Tests', description: 'nothing secret' });
    expect(redactText(text, secret)).toBe(text);
    expect(mentionsSecret(text, secret)).toBe(false);
  });
});

describe('redaction of pathological values', () => {
  it(`redactValue copies a value nested 200,000 deep without recursion, cut past ${maxBodyDepth} levels`, () => {
    let deep: unknown = TEST_KEY;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const copy = redactValue({ deep }, TEST_KEY);
    let level: unknown = (copy as { deep: unknown }).deep;
    let depth = 1;
    while (Array.isArray(level)) {
      level = level[0];
      depth++;
    }
    expect(level).toBe('[nested too deep]');
    expect(depth).toBe(maxBodyDepth);
  });

  it('redactValue keeps a "__proto__" key as a plain property of the copy', () => {
    const copy = redactValue(JSON.parse(`{"__proto__":{"polluted":"${TEST_KEY}"}}`), TEST_KEY) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(JSON.stringify(copy)).not.toContain(TEST_KEY);
  });

  it('redactCause replaces a Request, its Headers and the error’s own properties, and survives cycles', () => {
    const request = new Request(`https://api.example.test/x?k=${encodeURIComponent(TEST_KEY)}`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-trace': 'kept' },
    });
    const error = Object.assign(new Error('hook failed'), {
      request,
      detail: { note: TEST_KEY },
      code: 'E_HOOK',
    });
    (error as { self?: unknown }).self = error;
    const clean = redactCause(error, TEST_KEY) as Error & Record<string, unknown>;
    expect(clean).not.toBe(error);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(clean.code).toBe('E_HOOK');
    expect(clean.self).toBe(clean);
    const copied = clean.request as Request;
    expect(copied).toBeInstanceOf(Request);
    expect(copied.headers.get('x-trace')).toBe('kept');
    expect(copied.headers.get('authorization')).toBe(`Bearer ${redacted}`);
  });

  it('redactCause cleans what inspect shows beyond named properties: symbol keys, Sets, boxed strings', () => {
    const tag = Symbol('context');
    const named = Symbol(`key ${TEST_KEY}`);
    const error = Object.assign(new Error('fetch failed'), {
      [tag]: `Bearer ${TEST_KEY}`,
      [named]: 'kept',
      seen: new Set(['kept', `Bearer ${TEST_KEY}`]),
      boxed: new String(TEST_KEY),
      marker: Symbol(TEST_KEY),
    });
    const clean = redactCause(error, TEST_KEY) as Error & Record<PropertyKey, unknown>;
    expect(clean).not.toBe(error);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(clean[tag]).toBe(`Bearer ${redacted}`);
    expect([...(clean.seen as Set<string>)]).toEqual(['kept', `Bearer ${redacted}`]);
    expect(Object.getOwnPropertySymbols(clean).map((key) => clean[key])).toContain('kept');
  });

  it('redactCause cleans the own properties of containers beside their entries', () => {
    const note = { note: `Bearer ${TEST_KEY}` };
    const error = Object.assign(new Error('fetch failed'), {
      set: Object.assign(new Set(['a']), note),
      map: Object.assign(new Map([['a', 1]]), note),
      list: Object.assign(['a'], note),
      boxed: Object.assign(new String('hello'), note),
    });
    const clean = redactCause(error, TEST_KEY) as Error & Record<string, Record<string, unknown>>;
    expect(inspect(clean)).not.toContain(TEST_KEY);
    for (const name of ['set', 'map', 'list', 'boxed']) expect(clean[name]!.note).toBe(`Bearer ${redacted}`);
    expect([...(clean.set as unknown as Set<string>)]).toEqual(['a']);
    expect(String(clean.boxed)).toBe('hello');
    expect([...(clean.list as unknown as string[])]).toEqual(['a']);
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
    expect(clean.message).toBe(`TypeError: fetch failed for ${redacted}`);
    expect(inspect(clean)).not.toContain(TEST_KEY);
    expect(inspect(clean)).not.toContain('dynamically imported');
  });

  it('a connection failure without a key is described by the cause’s text, the cause kept as it is', async () => {
    const cause = new TypeError('Failed to fetch');
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    expect(await explainCause(cause, null, unreachable)).toEqual({
      cause,
      reason: 'TypeError: Failed to fetch',
    });
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
