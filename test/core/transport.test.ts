import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { maxBodyDepth } from '../../src/core/depth.js';
import { redacted } from '../../src/core/redact.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/index.js';
import { BASE, journalProfile, json, sequence, TEST_KEY, testClient, useMsw } from '../support.js';

const server = useMsw();

describe('requests', () => {
  it('sends Bearer auth, Accept and extra headers, client-wide and per request', async () => {
    const { handler, seen } = sequence('/journals/42', [() => json(journalProfile)]);
    server.use(handler);
    const sdk = testClient({ headers: { 'x-team': 'a' } });
    await sdk.journals.get(42, { headers: { 'x-trace': 't1' } });
    const headers = seen[0]!.headers;
    expect(headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('x-team')).toBe('a');
    expect(headers.get('x-trace')).toBe('t1');
  });

  it('sends no Authorization header with apiKey: null', async () => {
    const { handler, seen } = sequence('/journals/42', [() => json(journalProfile)]);
    server.use(handler);
    await testClient({ apiKey: null }).journals.get(42);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('accepts a base URL with a trailing slash', async () => {
    const { handler, seen } = sequence('/journals/42', [() => json(journalProfile)]);
    server.use(handler);
    await testClient({ baseUrl: `${BASE}/` }).journals.get(42);
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/journals/42');
  });

  it('keeps fields the server adds', async () => {
    server.use(http.get(`${BASE}/journals/42`, () => json({ ...journalProfile, impact: 3.2 })));
    const journal = await testClient().journals.get(42);
    expect(journal).toEqual({ ...journalProfile, impact: 3.2 });
  });
});

describe('status codes', () => {
  const cases = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [504, InternalServerError],
    [418, APIError],
  ] as const;
  for (const [status, type] of cases) {
    it(`${status} → ${type.name} with status, headers and parsed body`, async () => {
      const body = { error: { status, message: `went wrong ${status}` } };
      server.use(
        http.get(`${BASE}/journals/42`, () =>
          json(body, { status, headers: { 'x-request-id': 'r1', 'retry-after': '3600' } }),
        ),
      );
      const error = await testClient({ maxRetries: 0 })
        .journals.get(42)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(APIError);
      const apiError = error as APIError;
      expect(apiError.status).toBe(status);
      expect(apiError.headers.get('x-request-id')).toBe('r1');
      expect(apiError.body).toEqual(body);
      expect(apiError.message).toBe(`${status} ${apiError.message.split(' ').slice(1).join(' ')}`);
      expect(apiError.message).toContain(`went wrong ${status}`);
    });
  }

  it('keeps a body that is not JSON as text (a proxy HTML page)', async () => {
    server.use(
      http.get(`${BASE}/subjects`, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = (await testClient({ maxRetries: 0 })
      .subjects.list()
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe('<html>Bad gateway</html>');
  });

  it(`keeps an error body nested past ${maxBodyDepth} levels as its text, as one that is not JSON`, async () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    const deep = `{"message":"too deep ${TEST_KEY}","nested":${nested(90)}}`;
    const within = `{"message":"deep enough","nested":${nested(maxBodyDepth - 1)}}`;
    for (const apiKey of [null, TEST_KEY]) {
      server.use(
        http.get(`${BASE}/subjects`, () => new HttpResponse(deep, { status: 500 })),
        http.get(`${BASE}/journals/42`, () => new HttpResponse(within, { status: 500 })),
      );
      const sdk = testClient({ apiKey, maxRetries: 0 });
      const error = (await sdk.subjects.list().catch((e: unknown) => e)) as InternalServerError;
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.body).toBe(apiKey ? deep.replace(TEST_KEY, redacted) : deep);
      const kept = (await sdk.journals.get(42).catch((e: unknown) => e)) as InternalServerError;
      expect(kept.body).toEqual(JSON.parse(within));
      expect(kept.message).toBe('500 Server Error: deep enough');
    }
  });

  it('gives RateLimitError the Retry-After seconds', async () => {
    server.use(
      http.get(`${BASE}/subjects`, () => json({}, { status: 429, headers: { 'retry-after': '120' } })),
    );
    const error = (await testClient()
      .subjects.list()
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error.retryAfter).toBe(120);
  });
});

describe('an error status whose body does not come whole', () => {
  /** A body that sends a start, then fails (the connection cut) or never ends (stalled). */
  const body = (ending: 'cut' | 'stalled') =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"error": "rate'));
        if (ending === 'cut') controller.error(new TypeError('terminated'));
      },
    });
  /** A client whose every answer is `status` with such a body, and how many requests it sent. */
  function answering(status: number, ending: 'cut' | 'stalled') {
    let sent = 0;
    const fetch = async () => {
      sent++;
      return new Response(body(ending), { status, headers: { 'retry-after': '3600' } });
    };
    return { client: testClient({ fetch, timeout: 200 }), sent: () => sent };
  }

  it.each(['cut', 'stalled'] as const)(
    'a 429 of an hour, its body %s: RateLimitError, not retried (the status is the answer)',
    async (ending) => {
      const { client, sent } = answering(429, ending);
      const error = await client.subjects.list().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBe(3600);
      expect((error as RateLimitError).body).toBeUndefined();
      expect(sent()).toBe(1);
    },
  );

  it('a 401 whose body is cut short: AuthenticationError, not retried', async () => {
    const { client, sent } = answering(401, 'cut');
    await expect(client.subjects.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(sent()).toBe(1);
  });
});

describe('validation', () => {
  it('a 2xx body that is not JSON → ResponseValidationError with the raw body', async () => {
    server.use(http.get(`${BASE}/subjects`, () => new HttpResponse('<html>login</html>', { status: 200 })));
    const error = (await testClient()
      .subjects.list()
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.body).toBe('<html>login</html>');
    expect(error.message).toMatch(/not JSON/);
  });

  it('an empty 2xx body → ResponseValidationError', async () => {
    server.use(http.get(`${BASE}/subjects`, () => new HttpResponse(null, { status: 200 })));
    await expect(testClient().subjects.list()).rejects.toThrow(/empty body/);
  });

  it('wrong types → readable issues naming the path', async () => {
    server.use(
      http.get(`${BASE}/journals/42`, () => json({ ...journalProfile, metric_score: '87', oa: 1.5 })),
    );
    const error = (await testClient()
      .journals.get(42)
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i) => i.path.join('.'))).toEqual(['metric_score', 'oa']);
    expect(error.issues[0]!.message).toBe('expected an integer, got string "87"');
    expect(error.issues[1]!.message).toBe('expected a boolean, got 1.5');
    expect(error.message).toContain('metric_score: expected an integer');
  });

  it('a float where an integer is documented is refused', async () => {
    server.use(http.get(`${BASE}/journals/42`, () => json({ ...journalProfile, id: 42.5 })));
    await expect(testClient().journals.get(42)).rejects.toThrow('id: expected an integer, got 42.5');
  });
});

describe('connection failures', () => {
  it('a fetch that throws → ConnectionError with the cause, after the retries', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new TypeError('fetch failed');
    };
    const sdk = testClient({ fetch: failing, maxRetries: 1 });
    const error = (await sdk.subjects.list().catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error.cause as Error).message).toBe('fetch failed');
    expect(calls).toBe(2);
  });

  it('msw network error → ConnectionError', async () => {
    server.use(http.get(`${BASE}/subjects`, () => HttpResponse.error()));
    await expect(testClient({ maxRetries: 0 }).subjects.list()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('slow headers are a timeout too', async () => {
    server.use(
      http.get(`${BASE}/subjects`, async () => {
        await delay(2_000);
        return json([]);
      }),
    );
    await expect(testClient({ timeout: 50, maxRetries: 0 }).subjects.list()).rejects.toThrow(
      /timed out after 50 ms/,
    );
  });
});
