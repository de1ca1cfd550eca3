// The cache's partition: every credential a request carries before hooks (the API key, the client's
// and the call's headers). Over real sockets, against the mock server, which refuses a key on a plan
// without API access with a 403: an answer kept for one caller must never reach another.
import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { PermissionDeniedError } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_ELITE_API_KEY, MOCK_NO_ACCESS_API_KEY } from '../../src/testing/index.js';
import { testClient, useMockServer } from '../support.js';

describe('the cache partition', { timeout: 30_000 }, () => {
  const mock = useMockServer();
  const sent = () => mock.api.requests.length;

  it('a withOptions child whose headers carry another key gets its own answer, not the parent’s', async () => {
    const parent = testClient({ cache: true }, mock.server);
    await parent.journals.get(7);
    const child = parent.withOptions({ headers: { authorization: `Bearer ${MOCK_NO_ACCESS_API_KEY}` } });
    const before = sent();
    await expect(child.journals.get(7)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(sent()).toBe(before + 1);
    // The parent's answer is still its own, and still kept.
    expect((await parent.journals.get(7).withResponse()).cacheStatus).toBe('hit');
    expect(child.cache).toBe(parent.cache);
  });

  it('a call with an Authorization of its own is sent with it, and refused as the API refuses it', async () => {
    const client = testClient({ cache: true }, mock.server);
    await client.subjects.list();
    const before = sent();
    const headers = { Authorization: `Bearer ${MOCK_NO_ACCESS_API_KEY}` };
    await expect(client.subjects.list({ headers })).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(sent()).toBe(before + 1);
    expect((await client.subjects.list().withResponse()).cacheStatus).toBe('hit');
  });

  it('two apiKey: null clients whose headers carry different keys never share, even over one store', async () => {
    const store = new Keyv();
    const withKey = (key: string) =>
      testClient(
        { apiKey: null, headers: { authorization: `Bearer ${key}` }, cache: { store } },
        mock.server,
      );
    const allowed = withKey(MOCK_API_KEY);
    const refused = withKey(MOCK_NO_ACCESS_API_KEY);
    await allowed.journals.get(8);
    await allowed.journals.list();
    await allowed.countries.list();
    const before = sent();
    await expect(refused.journals.get(8)).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(refused.journals.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(refused.countries.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(sent()).toBe(before + 3);
    // A third client with the first one's credentials, written with other letter cases, shares its answers.
    const same = testClient(
      { apiKey: null, headers: { Authorization: `Bearer ${MOCK_API_KEY}` }, cache: { store } },
      mock.server,
    );
    expect((await same.countries.list().withResponse()).cacheStatus).toBe('hit');
    expect((await same.journals.get(8).withResponse()).cacheStatus).toBe('hit');
    expect(sent()).toBe(before + 3);
  });

  it('any header is part of the partition: a cookie or a header of the proxy’s own keeps callers apart', async () => {
    const client = testClient(
      { cache: true, apiKey: null, headers: { authorization: `Bearer ${MOCK_API_KEY}` } },
      mock.server,
    );
    await client.subjects.list({ headers: { cookie: 'session=alice' } });
    const before = sent();
    expect(
      (await client.subjects.list({ headers: { cookie: 'session=bob' } }).withResponse()).cacheStatus,
    ).toBe('miss');
    expect((await client.subjects.list({ headers: { 'x-tenant': 'b' } }).withResponse()).cacheStatus).toBe(
      'miss',
    );
    expect(
      (await client.subjects.list({ headers: { Cookie: 'session=alice' } }).withResponse()).cacheStatus,
    ).toBe('hit');
    expect(sent()).toBe(before + 2);
  });

  it('identical calls in flight share one request only within one partition', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    // Real requests to the mock server, each held back until the test releases them.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      started++;
      await gate;
      return globalThis.fetch(input, init);
    };
    const client = testClient({ cache: true, fetch }, mock.server);
    const before = sent();
    const calls = [
      client.journals.get(9),
      client.journals.get(9),
      client.journals.get(9, { headers: { authorization: `Bearer ${MOCK_ELITE_API_KEY}` } }),
      client.journals.get(9, { headers: { authorization: `Bearer ${MOCK_NO_ACCESS_API_KEY}` } }),
    ].map((call) =>
      Promise.resolve(call).then(
        (journal): number | string => journal.id,
        (error: Error) => error.name,
      ),
    );
    // Let every call reach its request (each awaits the store and its partition first); bounded, so
    // that calls wrongly joined cannot make the test wait for a third request that never comes.
    for (let turn = 0; turn < 200 && started < 3; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await Promise.all(calls)).toEqual([9, 9, 9, 'PermissionDeniedError']);
    expect(started).toBe(3);
    expect(sent()).toBe(before + 3);
  });
});
