import { describe, expect, it } from 'vitest';
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
  TimeoutError,
} from '../../src/index.js';
import { MOCK_NO_ACCESS_API_KEY } from '../../src/testing/index.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { UNKNOWN_KEY, useMockServer } from '../support.js';

let now = Date.parse('2025-03-01T12:00:00Z');
const mock = useMockServer({
  sizes: { journals: 40, papers: 2_000, authors: 300, subjects: 10, countries: 20 },
  now: () => now,
});

describe('API errors become typed SDK errors', () => {
  it('400 → BadRequestError carrying the server message (sort values listed)', async () => {
    const error = await mock
      .client()
      .papers.search({ sort: 'popularity' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).message).toContain('-citations');
    expect((error as BadRequestError).body).toMatchObject({ error: 'bad_request' });
    await expect(mock.client().papers.search({ per_page: 500 })).rejects.toThrow(BadRequestError);
  });

  it('401 → AuthenticationError, without the key in the message', async () => {
    const error = await mock
      .client({ apiKey: UNKNOWN_KEY })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String(error)).not.toContain(UNKNOWN_KEY);
  });

  it('403 → PermissionDeniedError for a plan without API access', async () => {
    await expect(mock.client({ apiKey: MOCK_NO_ACCESS_API_KEY }).subjects.list()).rejects.toThrow(
      PermissionDeniedError,
    );
  });

  it('404 → NotFoundError for an unknown journal, author or DOI', async () => {
    const client = mock.client();
    await expect(client.journals.get(999_999)).rejects.toThrow(NotFoundError);
    await expect(client.journals.score(999_999)).rejects.toThrow(/No journal with id 999999/);
    await expect(client.authors.get(999_999)).rejects.toThrow(NotFoundError);
    await expect(client.papers.get('10.9999/missing')).rejects.toThrow(NotFoundError);
  });

  it('429 with a short Retry-After is waited out and retried by the SDK', async () => {
    mock.api.faults.next({ status: 429, headers: { 'retry-after': '0' }, times: 2 });
    expect(await mock.client().subjects.list()).toHaveLength(10);
    expect(mock.api.requests.map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('5xx → retried, then InternalServerError once retries run out', async () => {
    mock.api.faults.next({ status: 503, headers: { 'retry-after': '0' } });
    expect(await mock.client().subjects.list()).toHaveLength(10);
    mock.api.faults.next({ status: 500, times: 3 });
    const error = await mock
      .client({ maxRetries: 0 })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toBeInstanceOf(APIError);
  });
});

describe('rate limits', () => {
  const limited = useMockServer({
    limits: { perMinute: 2 },
    now: () => now,
    sizes: { journals: 3, papers: 10, authors: 5, subjects: 2, countries: 2 },
  });

  it('429 → RateLimitError with retryAfter, until the next minute', async () => {
    // The client keeps off the API for the 429's minute: on a fake clock, that wait passes at once.
    useFakeClock();
    const client = limited.client({ maxRetries: 0 });
    await client.subjects.list();
    await client.subjects.list();
    const error = await client.subjects.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(60);
    now += 60_000;
    expect(await settleOnFakeClock(client.subjects.list())).toHaveLength(2);
  });
});

describe('transport failures', () => {
  it('a dropped connection → ConnectionError (no retries), recovered with retries', async () => {
    mock.api.faults.next({ reset: true });
    await expect(mock.client({ maxRetries: 0 }).subjects.list()).rejects.toThrow(ConnectionError);
    mock.api.faults.next({ reset: true });
    expect(await mock.client({ maxRetries: 1 }).subjects.list()).toHaveLength(10);
  });

  it('a slow answer → TimeoutError', async () => {
    mock.api.faults.next({ delayMs: 10_000 });
    await expect(mock.client({ timeout: 100, maxRetries: 0 }).subjects.list()).rejects.toThrow(TimeoutError);
  });

  it('a truncated or mis-typed body → ResponseValidationError', async () => {
    mock.api.faults.next({ malformed: true });
    await expect(mock.client({ maxRetries: 0 }).journals.get(1)).rejects.toThrow(ResponseValidationError);
    mock.api.faults.next({ malformed: 'shape' });
    const error = await mock
      .client({ maxRetries: 0 })
      .journals.get(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.length).toBeGreaterThan(0);
  });
});
