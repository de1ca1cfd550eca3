// An entry read back from the store is input: one past maxResponseBytes, one kept under another
// record's path, or one whose expiry lies past its method's lifetime is dropped and fetched again,
// with a warning and never an error. An answer that holds the key, however encoded, is never kept.
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetricClient, ResponseTooLargeError } from '../../src/index.js';
import { MOCK_API_KEY, MOCK_DOIS, type MockServer, startMockServer } from '../../src/testing/index.js';
import { recordingLogger, testClient } from '../support.js';
import { answerKeys } from './helpers.js';

/** A Keyv over a Map the test can read and write behind the cache's back. */
function inspectableStore() {
  const map = new Map<string, unknown>();
  const store = new Keyv({ store: map });
  /** The Keyv key of the entry kept for `path`. */
  const keyOf = (path: string) => {
    const found = answerKeys(map).find((key) => key.endsWith(`:${path}`));
    expect(found, `an entry for ${path}`).toBeDefined();
    return found!.replace(/^keyv:/, '');
  };
  const read = async (path: string) => (await store.get<string>(keyOf(path)))!;
  const write = async (path: string, value: string) => store.set(keyOf(path), value);
  return { map, store, read, write };
}

/** The entry's meta line, changed by `change`, over its body. */
const withMeta = (value: string, change: (meta: Record<string, unknown>) => void) => {
  const end = value.indexOf('\n');
  const meta = JSON.parse(value.slice(0, end)) as Record<string, unknown>;
  change(meta);
  return `${JSON.stringify(meta)}${value.slice(end)}`;
};

describe('entries the store hands back', { timeout: 30_000 }, () => {
  let mock: MockServer;
  const sent = () => mock.api.requests.length;
  const setup = (options = {}) => {
    const kept = inspectableStore();
    const { lines, logger } = recordingLogger();
    const client = testClient({ cache: { store: kept.store }, logLevel: 'warn', logger, ...options }, mock);
    const warned = (pattern: RegExp) =>
      lines.some((line) => line.level === 'warn' && /dropped a kept answer/.test(line.message)) &&
      lines.some((line) => pattern.test(JSON.stringify(line)));
    return { ...kept, client, lines, warned };
  };

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('one larger than maxResponseBytes is dropped and fetched again', async () => {
    const { client, read, write, warned } = setup({ maxResponseBytes: 4_096 });
    const journal = await client.journals.get(7);
    // Still a valid journal, but padded far past the client's bound.
    await write('/journals/7', `${await read('/journals/7')}${' '.repeat(64 * 1024)}`);
    const before = sent();
    const answer = await client.journals.get(7).withResponse();
    expect(answer.cacheStatus).toBe('miss');
    expect(answer.data).toEqual(journal);
    expect(sent()).toBe(before + 1);
    expect(warned(/maxResponseBytes/)).toBe(true);
    expect((await read('/journals/7')).length).toBeLessThan(4_096);
  });

  it('one whose headers are padded past what an answer holds is dropped before it is parsed', async () => {
    const { client, read, write, warned } = setup({ maxResponseBytes: 4_096 });
    const journal = await client.journals.get(7);
    // A small body, but a meta line of a megabyte: no API answer has such headers.
    const padded = withMeta(await read('/journals/7'), (meta) => {
      (meta.h as string[][]).push(['x-padding', 'a'.repeat(1024 * 1024)]);
    });
    await write('/journals/7', padded);
    const answer = await client.journals.get(7).withResponse();
    expect(answer.cacheStatus).toBe('miss');
    expect(answer.data).toEqual(journal);
    expect(answer.response.headers.has('x-padding')).toBe(false);
    expect(warned(/headers of an answer/)).toBe(true);
    expect((await read('/journals/7')).length).toBeLessThan(4_096);
  });

  it("a call's own smaller maxResponseBytes is a bound on what it reads from the store too", async () => {
    const { client } = setup();
    await client.subjects.list();
    const before = sent();
    await expect(client.subjects.list({ maxResponseBytes: 64 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    expect(sent()).toBe(before + 1);
  });

  it.each([
    [
      'a journal',
      '/journals/7',
      '/journals/42',
      (c: MetricClient) => c.journals.get(7),
      (c: MetricClient) => c.journals.get(42),
    ],
    [
      'an author',
      '/authors/3',
      '/authors/5',
      (c: MetricClient) => c.authors.get(3),
      (c: MetricClient) => c.authors.get(5),
    ],
    [
      'a paper',
      `/papers/${encodeURIComponent(MOCK_DOIS[0])}`,
      `/papers/${encodeURIComponent(MOCK_DOIS[1])}`,
      (c: MetricClient) => c.papers.get(MOCK_DOIS[0]),
      (c: MetricClient) => c.papers.get(MOCK_DOIS[1]),
    ],
  ])(
    '%s kept under another record’s path is dropped and fetched again',
    async (_, path, otherPath, get, getOther) => {
      const { client, read, write, warned } = setup();
      const own = await get(client);
      await getOther(client);
      await write(path, await read(otherPath));
      const before = sent();
      const answer = await get(client).withResponse();
      expect(answer.cacheStatus).toBe('miss');
      expect(answer.data).toEqual(own);
      expect(sent()).toBe(before + 1);
      expect(warned(/another record/)).toBe(true);
      expect((await get(client).withResponse()).cacheStatus).toBe('hit');
    },
  );

  it.each([
    [
      'an expiry ten years ahead',
      (meta: Record<string, unknown>) => {
        meta.e = Date.now() + 10 * 365 * 86_400_000;
      },
    ],
    [
      'a time of keeping a day ahead, with its lifetime after it',
      (meta: Record<string, unknown>) => {
        meta.t = Date.now() + 86_400_000;
        meta.e = (meta.t as number) + 3_600_000;
      },
    ],
  ])('one with %s is dropped and fetched again', async (_, change) => {
    const { client, read, write, warned } = setup();
    await client.countries.list();
    await write('/countries', withMeta(await read('/countries'), change));
    const before = sent();
    expect((await client.countries.list().withResponse()).cacheStatus).toBe('miss');
    expect(sent()).toBe(before + 1);
    expect(warned(/lifetime/)).toBe(true);
  });

  it('a lifetime shortened by the ttl option drops what was kept for longer', async () => {
    const { store } = inspectableStore();
    const long = testClient({ cache: { store } }, mock);
    await long.subjects.list();
    const short = testClient({ cache: { store, ttl: { 'subjects.list': 60_000 } } }, mock);
    expect((await short.subjects.list().withResponse()).cacheStatus).toBe('miss');
    expect((await short.subjects.list().withResponse()).cacheStatus).toBe('hit');
  });
});

describe('answers that hold the key', { timeout: 30_000 }, () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const percent = [...MOCK_API_KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  const html = [...MOCK_API_KEY].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('');
  const mixed = [...MOCK_API_KEY].map((c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : c)).join('');

  it.each([
    ['as written', MOCK_API_KEY],
    ['percent-encoded', percent],
    ['as HTML character references', html],
    ['mixed, one character in two', mixed],
  ])('are never kept: the key %s', async (_, echoed) => {
    const map = new Map<string, unknown>();
    const client = testClient({ cache: { store: new Keyv({ store: map }) } }, mock);
    mock.api.faults.next({
      status: 200,
      body: [{ id: 1, name: `see ${echoed}`, slug: 'x', journals: 1, papers: 1, citations: 1 }],
    });
    const answer = await client.subjects.list().withResponse();
    expect(answer.cacheStatus).toBe('miss');
    expect(map.size).toBe(0);
  });

  it.each([
    ['percent-encoded in the path (its + and /)', (key: string) => key],
    ['base64-encoded', (key: string) => btoa(key)],
    ['base64-encoded after a user name', (key: string) => btoa(`user:${key}`)],
  ])('a call whose parameters hold the key %s goes uncached: no store key holds it', async (_, form) => {
    const key = 'sk_live+AbCdEf/0123456789==';
    const map = new Map<string, unknown>();
    const client = testClient({ apiKey: key, cache: { store: new Keyv({ store: map }) } }, mock);
    mock.api.keys.set(key, 'professional');
    const first = await client.papers.search({ q: form(key) }).withResponse();
    const second = await client.papers.search({ q: form(key) }).withResponse();
    expect([first.cacheStatus, second.cacheStatus]).toEqual(['off', 'off']);
    expect(map.size).toBe(0);
  });
});
