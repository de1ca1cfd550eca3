// What the client shows holds no key: errors from a server that echoes it, the client itself, refusals.
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { redacted } from '../../src/core/redact.js';
import {
  APIError,
  AuthenticationError,
  ConfigurationError,
  InternalServerError,
  InvalidParameterError,
  ResponseValidationError,
} from '../../src/index.js';
import { failure } from '../helpers/calls.js';
import { BASE, journalProfile, json, TEST_KEY, testClient, useMsw } from '../support.js';
import { expectNoKey, inspect, views } from './redact-setup.js';

const server = useMsw();

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

  it.each([
    ['Authorization: Bearer', (key: string) => `Bearer ${key}`],
    ['Authorization: Token', (key: string) => `Token ${key}`],
    ['Authorization: Basic', (key: string) => `Basic ${key}`],
    ['Authorization, the key alone', (key: string) => key],
  ])('given in headers (%s, apiKey: null) rather than as apiKey: cut alike', async (_form, value) => {
    // The server echoes the header, and the credential alone, as a server that names the key does.
    server.use(
      http.get(`${BASE}/journals/42`, ({ request }) => {
        const sent = request.headers.get('authorization') ?? '';
        return json({ message: `bad ${sent} (${sent.split(' ').pop()})` }, { status: 401 });
      }),
    );
    const logged: string[] = [];
    const logger = { debug: (m: string, d?: unknown) => logged.push(`${m} ${JSON.stringify(d)}`) };
    const client = testClient({
      apiKey: null,
      headers: { Authorization: value(TEST_KEY) },
      logLevel: 'debug',
      logger: { ...logger, info: logger.debug, warn: logger.debug, error: logger.debug },
    });
    const error = await failure(client.journals.get(42));
    expect(error).toBeInstanceOf(AuthenticationError);
    expectNoKey(error);
    expect(logged.join('\n')).not.toContain(TEST_KEY);
  });

  it('given in a single call’s own headers, in place of the client’s key: cut alike', async () => {
    // A user's key, nothing like the client's.
    const USER_KEY = 'usr_9b8c7d6e5f4a3b2c1d0e';
    server.use(
      http.get(`${BASE}/journals/42`, ({ request }) =>
        json({ message: `bad ${request.headers.get('authorization')}` }, { status: 401 }),
      ),
    );
    const logged: string[] = [];
    const log = (m: string, d?: unknown) => logged.push(`${m} ${JSON.stringify(d)}`);
    const client = testClient({
      logLevel: 'debug',
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const asOther = { headers: { Authorization: `Token ${USER_KEY}` } };
    const error = await failure(client.journals.get(42, asOther));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as APIError).message).toBe(`401 Unauthorized: bad Token ${redacted}`);
    // The client's own key is still cut from that call's errors (here pasted where a DOI goes).
    expect(inspect(await failure(client.papers.get(TEST_KEY, asOther)))).not.toContain(TEST_KEY);
    expect(`${inspect(error)} ${logged.join('\n')}`).not.toContain(USER_KEY);
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
      (e: unknown) => e as InvalidParameterError | ConfigurationError,
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
    ['a parameter name', () => testClient().papers.search({ [TEST_KEY]: 1 } as never), InvalidParameterError],
    [
      'a request option name',
      () => testClient().journals.get(42, { [TEST_KEY]: 1 } as never),
      ConfigurationError,
    ],
    [
      'a getMany option name',
      () => testClient().papers.getMany(['10.1000/x'], { [TEST_KEY]: 1 } as never),
      ConfigurationError,
    ],
  ])('a key given as %s is cut from the message and from the name it refuses', async (_what, call, kind) => {
    const error = await refusal(call());
    expect(error).toBeInstanceOf(kind);
    const named = error instanceof ConfigurationError ? error.option : error.parameter;
    expect(named).toBe(redacted);
    expect(inspect(error)).not.toContain(TEST_KEY);
    expect(JSON.stringify(error)).not.toContain(TEST_KEY);
  });
});
