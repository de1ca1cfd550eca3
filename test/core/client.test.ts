import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  type ClientOptions,
  ConfigurationError,
  ConnectionError,
  MetricClient,
  MetricError,
} from '../../src/index.js';
import { rejection } from '../helpers/calls.js';
import { closedPort } from '../helpers/free-port.js';
import { TEST_KEY, testClient, useRealServer } from '../support.js';
import { fromNoEnvironment } from './options-setup.js';

const real = useRealServer();
const version: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
const sdkAgent = `scholarly-metrics/${version} (node/${process.versions.node})`;
const subjects = [{ id: 1, name: 'Physics', slug: 'physics', journals: 3, papers: 40, citations: 900 }];

/** Serves /subjects over the real socket and records the headers of every request. */
function recordHeaders(): IncomingHttpHeaders[] {
  const seen: IncomingHttpHeaders[] = [];
  real.serve((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(subjects));
  });
  return seen;
}
fromNoEnvironment();

describe('withOptions', () => {
  it('gives a new client with the headers merged (the new ones win); the parent is unchanged', async () => {
    const seen = recordHeaders();
    const parent = real.client({ headers: { 'x-a': 'parent', 'x-b': 'parent' } });
    const child = parent.withOptions({ headers: { 'x-b': 'child', 'x-c': 'child' } });
    expect(child).toBeInstanceOf(MetricClient);
    expect(child).not.toBe(parent);
    await child.subjects.list();
    await parent.subjects.list();
    expect(seen.map((h) => [h['x-a'], h['x-b'], h['x-c']])).toEqual([
      ['parent', 'child', 'child'],
      ['parent', 'parent', undefined],
    ]);
    expect(seen.map((h) => h.authorization)).toEqual([`Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`]);
  });

  it("merges a parent's HeadersLike, and refuses a child's bad header as the constructor does, quoting nothing", async () => {
    const seen = recordHeaders();
    const entries = new Map([['x-team', 'bibliometrics']]);
    const headersLike = {
      get: (name: string) => entries.get(name) ?? null,
      has: (name: string) => entries.has(name),
      forEach: (each: (value: string, name: string) => void) => entries.forEach(each),
    };
    await real
      .client({ headers: headersLike })
      .withOptions({ headers: { 'x-extra': '1' } })
      .subjects.list();
    expect(seen.map((h) => [h['x-team'], h['x-extra']])).toEqual([['bibliometrics', '1']]);
    const parent = real.client({ headers: { 'x-team': 'a' } });
    const bads: Record<string, string>[] = [{ 'bad name': 'v' }, { 'x-key': `${TEST_KEY}\u0000` }];
    for (const bad of bads) {
      const refusal = (() => {
        try {
          parent.withOptions({ headers: bad });
        } catch (error) {
          return error as ConfigurationError;
        }
      })();
      expect(refusal).toBeInstanceOf(ConfigurationError);
      expect(refusal).toMatchObject({ option: 'headers' });
      expect(refusal?.message).not.toContain(TEST_KEY);
    }
  });

  it('called from JavaScript with no options, gives a child like its parent, as an empty object does', async () => {
    const seen = recordHeaders();
    const parent = real.client({ headers: { 'x-a': 'parent' } });
    const child = (parent.withOptions as (options?: unknown) => MetricClient)();
    expect(child).toBeInstanceOf(MetricClient);
    await child.subjects.list();
    expect(seen.map((h) => h['x-a'])).toEqual(['parent']);
  });

  it('keeps the key and base URL the parent took from the environment, whatever it says later', async () => {
    const seen = recordHeaders();
    vi.stubEnv('METRIC_API_KEY', 'sk_env_parent_key_1');
    vi.stubEnv('METRIC_BASE_URL', real.base);
    const parent = new MetricClient();
    vi.stubEnv('METRIC_API_KEY', 'sk_env_changed_key_2');
    vi.stubEnv('METRIC_BASE_URL', 'http://127.0.0.1:9/api/v1');
    await parent.withOptions({ timeout: 5_000 }).subjects.list();
    vi.stubEnv('METRIC_API_KEY', '');
    vi.stubEnv('METRIC_BASE_URL', '');
    await parent.withOptions({ maxRetries: 0 }).subjects.list();
    expect(seen.map((h) => h.authorization)).toEqual([
      'Bearer sk_env_parent_key_1',
      'Bearer sk_env_parent_key_1',
    ]);
  });

  it("an option given as undefined keeps the parent's, as one left out does", async () => {
    const seen = recordHeaders();
    await real
      .client()
      .withOptions({ apiKey: undefined, baseUrl: undefined, headers: undefined })
      .subjects.list();
    expect(seen.map((h) => h.authorization)).toEqual([`Bearer ${TEST_KEY}`]);
  });

  it.each([
    ['null', null],
    ['a string', 'timeout=5000'],
    ['a number', 5_000],
  ])('withOptions(%s) → MetricError', (_label, value) => {
    expect(() => real.client().withOptions(value as ClientOptions)).toThrow(MetricError);
  });
});

describe('User-Agent', () => {
  it('in Node: scholarly-metrics/<package.json version> (node/<version>)', async () => {
    const seen = recordHeaders();
    await real.client().subjects.list();
    expect(seen[0]!['user-agent']).toBe(sdkAgent);
  });

  it("follows the user's own, set on the client or on a child", async () => {
    const seen = recordHeaders();
    const parent = real.client({ headers: { 'user-agent': 'myapp/1.0' } });
    await parent.subjects.list();
    await parent.withOptions({ headers: { 'User-Agent': 'myjob/2.0' } }).subjects.list();
    expect(seen.map((h) => h['user-agent'])).toEqual([`myapp/1.0 ${sdkAgent}`, `myjob/2.0 ${sdkAgent}`]);
  });

  it("extends one given for a single call, as it does the client's", async () => {
    const seen = recordHeaders();
    await real.client().subjects.list({ headers: { 'user-agent': 'mybatch/3.0' } });
    expect(seen[0]!['user-agent']).toBe(`mybatch/3.0 ${sdkAgent}`);
  });

  it('in a browser (a `document` exists) the SDK sets none', async () => {
    vi.stubGlobal('document', {});
    recordHeaders();
    // Read as handed to fetch: on the wire, Node's fetch adds a User-Agent of its own where none is set.
    const agents: Array<string | null> = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      agents.push(new Request(input, init).headers.get('user-agent'));
      return globalThis.fetch(input, init);
    };
    await real.client({ fetch, dangerouslyAllowBrowser: true }).subjects.list();
    await real
      .client({
        fetch,
        dangerouslyAllowBrowser: true,
        headers: { 'user-agent': 'myapp/1.0' },
      })
      .subjects.list();
    expect(agents).toEqual([null, 'myapp/1.0']);
  });
});

describe('ConnectionError from a runtime’s own NetworkError', () => {
  it('keeps it as the cause and names its message (it is no wrapper of ky’s)', async () => {
    const thrown = new DOMException('Network request failed', 'NetworkError');
    const client = testClient({ maxRetries: 0, fetch: () => Promise.reject(thrown) });
    const error = await rejection(client.subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/ failed: Network request failed$/);
    expect((error as Error).cause).toBe(thrown);
  });

  const nameThrows = Object.defineProperty({}, 'name', {
    get() {
      throw new Error('no name');
    },
  });
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an object whose name getter throws', nameThrows],
  ])('a fetch rejecting with %s: a ConnectionError all the same', async (_, reason) => {
    const client = testClient({ maxRetries: 0, fetch: () => Promise.reject(reason) });
    const error = await rejection(client.subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^GET .+\/subjects failed: /);
  });
});

describe('ConnectionError over a real socket', () => {
  it('a refused connection names ECONNREFUSED, keeps the runtime error as cause, and never the key', async () => {
    const client = testClient({ maxRetries: 0 }, { base: `http://127.0.0.1:${await closedPort()}/api/v1` });
    const error = await rejection(client.subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    const cause = (error as Error).cause as Error;
    // The runtime's own error (undici's "fetch failed"), not ky's NetworkError wrapper around it.
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause.name).not.toBe('NetworkError');
    const codes: unknown[] = [];
    for (let e: unknown = cause; e instanceof Error; e = e.cause) codes.push((e as { code?: unknown }).code);
    expect(codes).toContain('ECONNREFUSED');
    for (const text of [
      String(error),
      (error as Error).stack,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
    ]) {
      expect(text).not.toContain(TEST_KEY);
    }
  });
});
