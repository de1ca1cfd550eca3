// The API key and the base URL a client is given, and the key's refusal in a browser.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, MetricClient } from '../../src/index.js';
import { resolveClientOptions } from '../../src/resolve-options.js';
import { thrown } from '../helpers/calls.js';
import { BASE, TEST_KEY, testClient, useMsw } from '../support.js';
import { fromNoEnvironment, journal42On } from './options-setup.js';

const server = useMsw();
const journal42 = journal42On(server);
fromNoEnvironment();

describe('the API key', () => {
  it.each<[string, string | undefined]>([
    ['omitted', undefined],
    ['empty', ''],
  ])('%s, with no METRIC_API_KEY → ConfigurationError naming apiKey and METRIC_API_KEY', (_label, apiKey) => {
    const error = thrown(() => new MetricClient({ apiKey, baseUrl: BASE }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('apiKey');
    expect(error.message).toContain('METRIC_API_KEY');
  });

  it('null sends no Authorization header', async () => {
    const seen = journal42();
    await testClient({ apiKey: null }).journals.get(42);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('null lets a proxy-style Authorization from headers through', async () => {
    const seen = journal42();
    await testClient({ apiKey: null, headers: { authorization: 'Basic cHJveHk=' } }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe('Basic cHJveHk=');
  });

  it.each([
    ['a newline', 'sk_secret_value\n'],
    ['a space', 'sk_secret value'],
    ['a tab', 'sk_secret\tvalue'],
    ['a carriage return', 'sk_secret\r\nX-Injected: 1'],
    ['a non-ASCII character', 'sk_secret_välue'],
    ['a NUL', 'sk_secret\u0000value'],
  ])('with %s is refused at construction without being echoed', (_label, apiKey) => {
    const error = thrown(() => new MetricClient({ apiKey, baseUrl: BASE }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('apiKey');
    expect(error.message).not.toContain('sk_secret');
    expect(String(error)).not.toContain('sk_secret');
    expect(error.stack ?? '').not.toContain('sk_secret');
  });

  it('a malformed METRIC_API_KEY is refused without being echoed', () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_secret_from_env\n');
    const error = thrown(() => new MetricClient({ baseUrl: BASE }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).not.toContain('sk_secret_from_env');
  });

  it.each<[string, unknown]>([
    ['a number', 12345],
    ['an object', { key: 'sk' }],
    ['true', true],
  ])('that is %s is refused', (_label, apiKey) => {
    expect(() => new MetricClient({ apiKey: apiKey as string, baseUrl: BASE })).toThrow(ConfigurationError);
  });
});

describe('the base URL', () => {
  it('omitted, with no METRIC_BASE_URL → ConfigurationError naming baseUrl and METRIC_BASE_URL', () => {
    const error = thrown(() => new MetricClient({ apiKey: TEST_KEY }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('baseUrl');
    expect(error.message).toContain('METRIC_BASE_URL');
  });

  it.each([
    'ftp://x',
    'ftp://api.example.test/api/v1',
    'not a url',
    '/api/v1',
    'api.example.test/api/v1',
    'file:///api/v1',
    'mailto:api@example.test',
    'javascript:alert(1)',
    'data:text/plain,api',
    `${BASE}?q`,
    `${BASE}?key=value`,
    `${BASE}#section`,
    'https://',
  ])('%j → ConfigurationError naming baseUrl', (baseUrl) => {
    const error = thrown(() => new MetricClient({ apiKey: TEST_KEY, baseUrl }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('baseUrl');
  });

  it('a malformed METRIC_BASE_URL → ConfigurationError naming METRIC_BASE_URL', () => {
    vi.stubEnv('METRIC_BASE_URL', 'ftp://x');
    const error = thrown(() => new MetricClient({ apiKey: TEST_KEY }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('METRIC_BASE_URL');
  });

  it.each([`${BASE}/`, `${BASE}//`, 'HTTPS://API.EXAMPLE.TEST/api/v1/'])(
    '%j works as the base',
    async (baseUrl) => {
      const seen = journal42();
      await testClient({ baseUrl }).journals.get(42);
      expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/journals/42');
    },
  );

  it('http is accepted as well as https', () => {
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: 'http://localhost:8080/api/v1' }).baseUrl).toBe(
      'http://localhost:8080/api/v1',
    );
  });

  // A base with an empty query or fragment has `search === ''` / `hash === ''`, yet the `?` or `#` stays
  // in `href`, so every path would land in the query or fragment. Either refusal or a correct path is fine.
  it.each([`${BASE}?`, `${BASE}#`, `${BASE}/?`])(
    '%j is refused, or requests still reach the right path',
    async (baseUrl) => {
      let sdk: MetricClient;
      try {
        sdk = testClient({ baseUrl });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return;
      }
      const seen = journal42();
      await sdk.journals.get(42);
      expect(seen.map((request) => request.url)).toEqual([`${BASE}/journals/42`]);
    },
  );
});

describe('in a browser', () => {
  beforeEach(() => {
    vi.stubGlobal('document', {});
  });

  it('an API key is refused without dangerouslyAllowBrowser, and not echoed', () => {
    const error = thrown(() => testClient());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('dangerouslyAllowBrowser');
    expect(error.message).not.toContain(TEST_KEY);
  });

  it('an API key from METRIC_API_KEY is refused too', () => {
    vi.stubEnv('METRIC_API_KEY', TEST_KEY);
    expect(() => new MetricClient({ baseUrl: BASE })).toThrow(ConfigurationError);
  });

  it('dangerouslyAllowBrowser: false is the same as omitting it', () => {
    expect(() => testClient({ dangerouslyAllowBrowser: false })).toThrow(ConfigurationError);
  });

  it('dangerouslyAllowBrowser: true lets the key through', async () => {
    const seen = journal42();
    await testClient({ dangerouslyAllowBrowser: true }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('apiKey: null needs no opt-in', async () => {
    const seen = journal42();
    await testClient({ apiKey: null }).journals.get(42);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('outside a browser no opt-in is needed', () => {
    vi.unstubAllGlobals();
    expect(() => testClient()).not.toThrow();
  });
});
