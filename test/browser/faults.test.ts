// The built client in Chromium against a mock that misbehaves on request: retries, headers read
// through CORS, refused bodies (which load the lazy zod chunk), timeouts and aborts.
import {
  ConnectionError,
  RateLimitError,
  RequestAbortedError,
  ResponseValidationError,
  TimeoutError,
} from 'scholarly-metrics';
import { afterEach, describe, expect, test } from 'vitest';
import { control, controlledClient, fault } from './helpers.js';

afterEach(async () => {
  await control('faults', undefined, 'DELETE');
});

describe('retries', () => {
  test('a 503 is retried, honouring Retry-After, then succeeds', async () => {
    await fault({ status: 503, headers: { 'retry-after': '0' }, times: 2 });
    const subjects = await controlledClient({ maxRetries: 2 }).subjects.list();
    expect(subjects.length).toBeGreaterThan(0);
  });

  test('a 429 with a long Retry-After: RateLimitError at once, retryAfter read across origins', async () => {
    await fault({ status: 429, headers: { 'retry-after': '3600' } });
    let sent = 0;
    const error = await controlledClient({
      fetch: (input, init) => {
        sent++;
        return globalThis.fetch(input, init);
      },
    })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    // Readable only because the mock lists Retry-After in Access-Control-Expose-Headers.
    expect((error as RateLimitError).retryAfter).toBe(3600);
    // At once: one request, no retry waited for.
    expect(sent).toBe(1);
  });

  test('a dropped connection is a ConnectionError once retries are spent', async () => {
    // More resets than attempts: Chromium itself retries a request whose reused connection drops.
    await fault({ reset: true, times: 10 });
    const error = await controlledClient({ maxRetries: 1 })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });
});

describe('ResponseValidationError', () => {
  test('a 200 body of the wrong shape: zod says what is wrong, in words loaded with the first refusal', async () => {
    const c = controlledClient({ maxRetries: 0 });
    const journal = (await c.journals.list())[0]!;
    await fault({ malformed: 'shape' });
    const error = await c.journals.get(journal.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const refused = error as ResponseValidationError;
    expect(refused.message).toMatch(/journal profile/);
    expect(refused.issues.length).toBeGreaterThan(0);
    expect(refused.issues.map((issue) => issue.path.join('.'))).toContain('id');
    expect(refused.body).toContain(`"${journal.id}"`);
    // The wording came with zod's runtime, in the build's lazily loaded chunk of the schemas.
    const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(loaded.some((url) => /\/dist\/response-schemas-[\w-]+\.js(\?|$)/.test(url))).toBe(true);
  });

  test('a 200 body cut short is refused as not JSON', async () => {
    await fault({ malformed: 'truncated' });
    const error = await controlledClient({ maxRetries: 0 })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).message).toMatch(/not JSON/);
  });
});

describe('time limits', () => {
  test('a slow answer is a TimeoutError after `timeout`', async () => {
    await fault({ delayMs: 3_000 });
    // Had the timeout not struck, the answer would have come, late but valid: a TimeoutError is the proof.
    const error = await controlledClient({ maxRetries: 0, timeout: 300 })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('300 ms');
  });

  test('an AbortSignal ends the call with RequestAbortedError', async () => {
    await fault({ delayMs: 3_000 });
    const controller = new AbortController();
    const pending = controlledClient().subjects.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left the page')), 100);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
  });
});
