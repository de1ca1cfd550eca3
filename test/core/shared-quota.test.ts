// The client's side of the quota interface, with a recording quota (no Redis): what the client hands
// a shared quota, what the transport tells it, and what it does with a quota's refusal.
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { QuotaAttempt, QuotaIdentity, RequestQuota, SharedQuota } from '../../src/index.js';
import { MetricClient, MetricError, QuotaUnavailableError, RateLimitError } from '../../src/index.js';
import { BASE, json, OTHER_TEST_KEY, TEST_KEY, testClient, useMsw } from '../support.js';

const server = useMsw();
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];

/** A shared quota that lets everything through and records what it is told. */
function recording(refuse?: Error) {
  const identities: QuotaIdentity[] = [];
  const attempts: Array<QuotaAttempt | undefined> = [];
  const pauses: number[] = [];
  const blocks: number[] = [];
  const parts: RequestQuota[] = [];
  const quota: SharedQuota = {
    forClient(identity) {
      identities.push(identity);
      const part: RequestQuota = {
        run: (send, attempt) => {
          attempts.push(attempt);
          return refuse ? Promise.reject(refuse) : send();
        },
        pause: (ms) => void pauses.push(ms),
        block: (ms) => void blocks.push(ms),
      };
      parts.push(part);
      return part;
    },
  };
  return { quota, identities, attempts, pauses, blocks, parts };
}

function serve(...replies: Array<() => Response>) {
  let calls = 0;
  server.use(http.get(`${BASE}/subjects`, () => replies[Math.min(calls++, replies.length - 1)]!()));
  return () => calls;
}

describe('a shared quota (`quota`)', () => {
  it('is asked for the part of this base URL and key, and told each attempt’s signal and timeout', async () => {
    const shared = recording();
    serve(() => json(subjects));
    const controller = new AbortController();
    await testClient({ quota: shared.quota }).subjects.list({ timeout: 1_234, signal: controller.signal });
    expect(shared.identities).toEqual([{ baseUrl: BASE, apiKey: TEST_KEY }]);
    expect(shared.attempts).toEqual([{ signal: controller.signal, timeout: 1_234 }]);
  });

  it('withOptions hands the child the parent’s part; another key gets its own', async () => {
    const shared = recording();
    const parent = testClient({ quota: shared.quota });
    parent.withOptions({ timeout: 5_000 }).withOptions({ maxRetries: 0 });
    expect(shared.identities).toHaveLength(1);
    parent.withOptions({ apiKey: OTHER_TEST_KEY });
    expect(shared.identities.map((i) => i.apiKey)).toEqual([TEST_KEY, OTHER_TEST_KEY]);
  });

  it('the key a client sends is its identity: an Authorization header’s over apiKey', async () => {
    const shared = recording();
    const parent = testClient({ quota: shared.quota });
    // The child sends another key in its headers: a part of its own.
    parent.withOptions({ headers: { Authorization: `Bearer ${OTHER_TEST_KEY}` } });
    // Through a proxy with the key in its headers, and a child whose apiKey the header still overrides.
    const proxied = testClient({
      apiKey: null,
      headers: { Authorization: `Token ${OTHER_TEST_KEY}` },
      quota: shared.quota,
    });
    proxied.withOptions({ apiKey: TEST_KEY });
    // A header with its scheme alone (`Bearer ${process.env.TOKEN ?? ''}`, the variable unset) sends no key.
    testClient({ headers: { Authorization: 'Bearer' }, quota: shared.quota });
    expect(shared.identities.map((i) => i.apiKey)).toEqual([
      TEST_KEY,
      OTHER_TEST_KEY,
      OTHER_TEST_KEY,
      TEST_KEY,
    ]);
  });

  it('is told to block on a 429 that will not be retried, and to pause on one that will', async () => {
    const shared = recording();
    const daily = () => json({ message: 'daily limit' }, { status: 429, headers: { 'retry-after': '3600' } });
    serve(daily);
    await expect(testClient({ quota: shared.quota }).subjects.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(shared.blocks).toEqual([3_600_000]);
    expect(shared.pauses).toEqual([]);

    const brief = () => json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } });
    const calls = serve(brief, () => json(subjects));
    await expect(testClient({ quota: shared.quota }).subjects.list()).resolves.toEqual(subjects);
    expect(calls()).toBe(2);
    expect(shared.pauses.length).toBeGreaterThan(0);
    expect(Math.min(...shared.pauses)).toBeGreaterThanOrEqual(1_000);
    expect(shared.blocks).toEqual([3_600_000]);
  });

  it('knows nothing of a call that sends a key of its own: not held, not told of its 429s', async () => {
    const shared = recording();
    serve(() => json({ message: 'daily limit' }, { status: 429, headers: { 'retry-after': '3600' } }));
    const client = testClient({ quota: shared.quota, maxRetries: 0 });
    const asOther = { headers: { Authorization: `Bearer ${OTHER_TEST_KEY}` } };
    await expect(client.subjects.list(asOther)).rejects.toBeInstanceOf(RateLimitError);
    // Another key counts apart: the client's part, its own key's, is neither asked nor blocked.
    expect([shared.attempts, shared.blocks, shared.pauses]).toEqual([[], [], []]);
    await expect(client.subjects.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(shared.blocks).toEqual([3_600_000]);
  });

  it("is told to pause on a brief 429 whose retries are used up: the wait is the key's, not the attempt's", async () => {
    const shared = recording();
    serve(() => json({ message: 'slow down' }, { status: 429, headers: { 'retry-after': '3' } }));
    const strict = testClient({ quota: shared.quota, maxRetries: 0 });
    await expect(strict.subjects.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(shared.pauses).toEqual([3_000]);
    expect(shared.blocks).toEqual([]);
  });

  it('a refusal of the quota rejects the call as it is, and nothing is sent', async () => {
    const unavailable = new QuotaUnavailableError('Redis did not answer within 30000 ms; nothing was sent');
    const calls = serve(() => json(subjects));
    const error = await testClient({ quota: recording(unavailable).quota })
      .subjects.list()
      .catch((e: unknown) => e);
    expect(error).toBe(unavailable);
    expect(error).toBeInstanceOf(MetricError);
    expect(calls()).toBe(0);
  });

  it('with the client’s own limits, or not a quota, throws at construction', () => {
    const { quota } = recording();
    // A type error as well (ClientOptions); a JavaScript caller still meets the runtime check.
    // @ts-expect-error: quota with the client's own limits
    expect(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, quota, maxConcurrency: 2 })).toThrow(
      MetricError,
    );
    expect(
      // @ts-expect-error: likewise
      () => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, quota, maxRequestsPerMinute: 60 }),
    ).toThrow(/maxRequestsPerMinute/);
    expect(() => new MetricClient({ apiKey: TEST_KEY, baseUrl: BASE, quota: {} as SharedQuota })).toThrow(
      MetricError,
    );
    expect(() => testClient({ quota }).withOptions({ maxConcurrency: 2 })).toThrow(MetricError);
  });
});
