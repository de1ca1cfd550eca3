import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CacheOptions } from '../../src/cache/options.js';
import type { ClientOptions, ClientOptionsBase } from '../../src/client-options.js';
import { ConfigurationError, ConnectionError, MetricClient, MetricError } from '../../src/index.js';
import { resolveClientOptions } from '../../src/resolve-options.js';
import { refusals } from '../helpers/calls.js';
import { BASE, journalProfile, json, sequence, TEST_KEY, testClient, useMsw } from '../support.js';

const server = useMsw();
const { catchAll } = refusals(server);

beforeEach(() => {
  // Whatever the machine's environment holds, these tests start from none of it.
  vi.stubEnv('METRIC_API_KEY', '');
  vi.stubEnv('METRIC_BASE_URL', '');
  vi.stubEnv('METRIC_LOG', '');
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** The error `run` throws; fails the test when it throws nothing. */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected an error, nothing was thrown');
}

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => undefined,
    (error: unknown) => error,
  );
}

function journal42() {
  const { handler, seen } = sequence('/journals/42', [() => json(journalProfile)]);
  server.use(handler);
  return seen;
}

describe('environment variables', () => {
  it('METRIC_API_KEY is used when apiKey is omitted', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_1');
    const seen = journal42();
    await new MetricClient({ baseUrl: BASE }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_env_key_1');
  });

  it('a malformed METRIC_API_KEY is named as the variable, an apiKey as the option; neither quoted', () => {
    const key = 'sk_env_key_4\r';
    vi.stubEnv('METRIC_API_KEY', key);
    const fromEnvironment = thrown(() => new MetricClient({ baseUrl: BASE }));
    expect(fromEnvironment).toBeInstanceOf(ConfigurationError);
    expect((fromEnvironment as ConfigurationError).option).toBe('METRIC_API_KEY');
    expect(fromEnvironment.message).toMatch(/^METRIC_API_KEY must be /);
    const given = thrown(() => new MetricClient({ baseUrl: BASE, apiKey: key }));
    expect((given as ConfigurationError).option).toBe('apiKey');
    expect(given.message).toMatch(/^`apiKey` must be /);
    for (const error of [fromEnvironment, given]) expect(error.message).not.toContain('sk_env_key_4');
  });

  it('METRIC_BASE_URL is used when baseUrl is omitted', async () => {
    vi.stubEnv('METRIC_BASE_URL', BASE);
    const seen = journal42();
    await new MetricClient({ apiKey: TEST_KEY }).journals.get(42);
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/journals/42');
  });

  it('both come from the environment with no options at all', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_2');
    vi.stubEnv('METRIC_BASE_URL', `${BASE}/`);
    const seen = journal42();
    await new MetricClient().journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_env_key_2');
  });

  it('options win over the environment', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_3');
    vi.stubEnv('METRIC_BASE_URL', 'https://elsewhere.example.test/api/v1');
    const seen = journal42();
    await testClient().journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
    expect(new URL(seen[0]!.url).host).toBe('api.example.test');
  });

  it('a runtime that refuses to read the environment (Deno without --allow-env) counts it as unset', async () => {
    // Only the SDK's own variables refuse: msw, under the client in this test, reads others.
    const env = new Proxy(process.env, {
      get(target, name) {
        if (typeof name === 'string' && name.startsWith('METRIC_')) {
          throw new Error(`NotCapable: Requires env access to "${name}"`);
        }
        return target[name as string];
      },
    });
    vi.stubGlobal('process', { ...process, env });
    const seen = journal42();
    await testClient({ apiKey: TEST_KEY, baseUrl: BASE }).journals.get(42);
    expect(seen).toHaveLength(1);
    const missing = thrown(() => new MetricClient({ baseUrl: BASE }));
    expect(missing).toBeInstanceOf(ConfigurationError);
    expect(missing.message).toContain('METRIC_API_KEY');
  });

  it('apiKey: null sends no Authorization even when METRIC_API_KEY is set', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_env_key_4');
    const seen = journal42();
    await testClient({ apiKey: null }).journals.get(42);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });
});

describe('the env option', () => {
  it('is read in place of the process environment', async () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_process_key');
    vi.stubEnv('METRIC_BASE_URL', 'https://elsewhere.example.test/api/v1');
    const seen = journal42();
    await new MetricClient({ env: { METRIC_API_KEY: 'sk_handed_key', METRIC_BASE_URL: BASE } }).journals.get(
      42,
    );
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer sk_handed_key');
    expect(new URL(seen[0]!.url).host).toBe('api.example.test');
  });

  it('{} reads no variable, not even the process ones', () => {
    vi.stubEnv('METRIC_API_KEY', 'sk_process_key');
    const missing = thrown(() => new MetricClient({ baseUrl: BASE, env: {} }));
    expect(missing).toBeInstanceOf(ConfigurationError);
    expect((missing as ConfigurationError).option).toBe('apiKey');
    expect(missing.message).toBe(
      'Missing API key: pass `apiKey` to new MetricClient() or set METRIC_API_KEY ' +
        '(use apiKey: null when a proxy adds the Authorization header)',
    );
  });

  it('its METRIC_LOG and METRIC_BASE_URL are named as the process ones are', () => {
    const log = thrown(() => testClient({ env: { METRIC_LOG: 'loud' } }));
    expect((log as ConfigurationError).option).toBe('METRIC_LOG');
    expect(log.message).toBe('METRIC_LOG must be one of off, error, warn, info, debug');
    const url = thrown(() => new MetricClient({ apiKey: TEST_KEY, env: { METRIC_BASE_URL: 'not a url' } }));
    expect((url as ConfigurationError).option).toBe('METRIC_BASE_URL');
  });

  it('an empty variable counts as unset, and the options win over it', async () => {
    const missing = thrown(() => new MetricClient({ env: { METRIC_API_KEY: '', METRIC_BASE_URL: BASE } }));
    expect((missing as ConfigurationError).option).toBe('apiKey');
    const seen = journal42();
    await testClient({
      env: { METRIC_API_KEY: 'sk_handed_key', METRIC_LOG: 'loud' },
      logLevel: 'off',
    }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });

  it('a child of withOptions reads its own env, keeping its parent key and base URL', async () => {
    const parent = new MetricClient({ env: { METRIC_API_KEY: TEST_KEY, METRIC_BASE_URL: BASE } });
    const refused = thrown(() => parent.withOptions({ env: { METRIC_LOG: 'loud' } }));
    expect((refused as ConfigurationError).option).toBe('METRIC_LOG');
    const seen = journal42();
    await parent.withOptions({ env: {} }).journals.get(42);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${TEST_KEY}`);
  });
});

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

describe('timeout and maxRetries', () => {
  const badTimeouts: Array<[string, unknown]> = [
    ['0', 0],
    ['-1', -1],
    ['NaN', Number.NaN],
    ['2**31', 2 ** 31],
    ['Infinity', Number.POSITIVE_INFINITY],
    ["'1000'", '1000'],
    ['null', null],
  ];
  const badRetries: Array<[string, unknown]> = [
    ['-1', -1],
    ['1.5', 1.5],
    ['11', 11],
    ['NaN', Number.NaN],
    ["'2'", '2'],
    ['null', null],
  ];

  it.each(badTimeouts)('timeout %s is refused at construction', (_label, timeout) => {
    const error = thrown(() => testClient({ timeout: timeout as number }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(MetricError);
    expect((error as ConfigurationError).option).toBe('timeout');
    expect(error.message).toContain('timeout');
  });

  it.each(badRetries)('maxRetries %s is refused at construction', (_label, maxRetries) => {
    const error = thrown(() => testClient({ maxRetries: maxRetries as number }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).option).toBe('maxRetries');
    expect(error.message).toContain('maxRetries');
  });

  it('accepts the bounds: timeout 1 and 2**31 - 1, maxRetries 0 and 10', () => {
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE, timeout: 1 }).timeout).toBe(1);
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE, timeout: 2 ** 31 - 1 }).timeout).toBe(
      2 ** 31 - 1,
    );
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE, maxRetries: 0 }).maxRetries).toBe(0);
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE, maxRetries: 10 }).maxRetries).toBe(10);
  });

  it('defaults to timeout 30 000 ms and 2 retries', () => {
    const resolved = resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE });
    expect(resolved.timeout).toBe(30_000);
    expect(resolved.maxRetries).toBe(2);
  });

  for (const [name, cases] of [
    ['timeout', badTimeouts],
    ['maxRetries', badRetries],
  ] as const) {
    it.each(cases)(`${name} %s per request is a rejection, and nothing is sent`, async (_label, value) => {
      const seen = catchAll();
      const sdk = testClient();
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = sdk.journals.get(42, { [name]: value });
      }).not.toThrow();
      const error = await rejection(promise!);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).option).toBe(name);
      expect(seen).toHaveLength(0);
      const page = await rejection(sdk.papers.search({ q: 'x' }, { [name]: value }));
      expect(page).toBeInstanceOf(ConfigurationError);
      expect(seen).toHaveLength(0);
    });
  }
});

describe('headers', () => {
  it('client-wide headers that are not valid HTTP headers → ConfigurationError at construction', () => {
    const error = thrown(() => testClient({ headers: { 'bad name': 'x' } }));
    expect(error).toBeInstanceOf(ConfigurationError);
  });

  it.each<[string, unknown]>([
    ['an invalid header name', { 'bad name': 'x' }],
    ['a header value with a newline', { 'x-trace': 'a\nb' }],
    ['a number', 5],
  ])(
    'per-request headers with %s are refused before sending as ConfigurationError, not ConnectionError',
    async (_label, headers) => {
      const seen = catchAll();
      const sdk = testClient({ maxRetries: 0 });
      const error = await rejection(sdk.journals.get(42, { headers: headers as HeadersInit }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(ConnectionError);
      expect(seen).toHaveLength(0);
    },
  );

  it('sends the headers of a HeadersLike that is not a runtime Headers, client-wide and per call', async () => {
    /** What the type allows: get, has and forEach, on a prototype (nothing of its own to iterate). */
    class TeamHeaders {
      readonly #entries: Array<[string, string]>;
      constructor(entries: Array<[string, string]>) {
        this.#entries = entries;
      }
      get(name: string) {
        return this.#entries.find(([key]) => key === name)?.[1] ?? null;
      }
      has(name: string) {
        return this.get(name) !== null;
      }
      forEach(callback: (value: string, name: string) => void) {
        for (const [name, value] of this.#entries) callback(value, name);
      }
    }
    const seen = journal42();
    const sdk = testClient({ headers: new TeamHeaders([['x-team', 'bibliometrics']]) });
    await sdk.journals.get(42, { headers: new TeamHeaders([['x-trace', 't1']]) });
    expect(seen[0]!.headers.get('x-team')).toBe('bibliometrics');
    expect(seen[0]!.headers.get('x-trace')).toBe('t1');
  });
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

describe('logLevel and METRIC_LOG', () => {
  it.each(['off', 'error', 'warn', 'info', 'debug'])('METRIC_LOG=%s is accepted', (level) => {
    vi.stubEnv('METRIC_LOG', level);
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE }).logLevel).toBe(level);
  });

  it.each(['verbose', 'DEBUG', 'true', '1', 'constructor', '__proto__'])(
    'METRIC_LOG=%s → ConfigurationError naming METRIC_LOG',
    (level) => {
      vi.stubEnv('METRIC_LOG', level);
      const error = thrown(() => testClient());
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toContain('METRIC_LOG');
    },
  );

  it('an invalid logLevel option → ConfigurationError naming logLevel', () => {
    const error = thrown(() => testClient({ logLevel: 'loud' as 'debug' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('logLevel');
  });

  it('the logLevel option wins over METRIC_LOG, even an invalid one', () => {
    vi.stubEnv('METRIC_LOG', 'verbose');
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE, logLevel: 'warn' }).logLevel).toBe('warn');
  });

  it("defaults to 'off'", () => {
    expect(resolveClientOptions({ apiKey: TEST_KEY, baseUrl: BASE }).logLevel).toBe('off');
  });
});

describe('the options object', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'sk_key'],
    ['a number', 5],
  ])('%s → ConfigurationError', (_label, options) => {
    expect(() => new MetricClient(options as never)).toThrow(ConfigurationError);
  });

  it('a fetch that is not a function → ConfigurationError naming fetch', () => {
    const error = thrown(() => testClient({ fetch: 'fetch' as never }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('fetch');
  });

  it('uses the given fetch', async () => {
    server.use(http.get(`${BASE}/subjects`, () => json([])));
    const urls: string[] = [];
    // The given fetch records what it is handed and passes it on to the real fetch, which msw answers.
    const fetch: typeof globalThis.fetch = (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    };
    await testClient({ fetch }).subjects.list();
    expect(urls).toEqual([`${BASE}/subjects`]);
  });

  it('a name it does not take (misspelt, or another SDK’s) → ConfigurationError naming it', () => {
    const error = thrown(() => testClient({ timout: 5_000 } as never)) as ConfigurationError;
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.option).toBe('timout');
    expect(error.message).toBe('new MetricClient() takes no option "timout"');
    expect(() => testClient({ organization: 'x' } as never)).toThrow(/takes no option "organization"/);
    expect(() => testClient({}).withOptions({ retries: 1 } as never)).toThrow(/takes no option "retries"/);
    // Given as `undefined`, which keeps the parent's value of a name the client takes.
    expect(() => testClient({ timout: undefined } as never)).toThrow(/takes no option "timout"/);
    const child = thrown(() => testClient({}).withOptions({ timout: undefined } as never));
    expect(child).toBeInstanceOf(ConfigurationError);
    expect((child as ConfigurationError).message).toBe('new MetricClient() takes no option "timout"');
    // Own names only: an enumerable name on Object.prototype (a polyfill, a polluted prototype) is no
    // option of anything.
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.polyfilled = true;
    try {
      expect(() => testClient({})).not.toThrow();
    } finally {
      delete polluted.polyfilled;
    }
    // Nor of withOptions, even where its value is undefined, as an undefined option of the child's is.
    polluted.polyfilled = undefined;
    try {
      expect(() => testClient({}).withOptions({ timeout: undefined })).not.toThrow();
    } finally {
      delete polluted.polyfilled;
    }
  });

  it('takes every option ClientOptionsBase declares', () => {
    // A Record of every key: the compiler fails this test when the type gains an option it lacks.
    const every: { [K in keyof Required<ClientOptionsBase>]: ClientOptionsBase[K] } = {
      apiKey: TEST_KEY,
      env: {},
      baseUrl: BASE,
      timeout: 1_000,
      maxRetries: 1,
      fetch: globalThis.fetch,
      headers: { 'x-team': 'a' },
      maxConcurrency: 2,
      maxRequestsPerMinute: 60,
      pacing: 'even',
      quota: undefined,
      hooks: {},
      dangerouslyAllowBrowser: false,
      logLevel: 'off',
      logger: console,
      cache: false,
      maxResponseBytes: 1_000_000,
      telemetry: undefined,
    };
    expect(() => new MetricClient(every as ClientOptions)).not.toThrow();
  });

  it('takes every option CacheOptions declares in `cache`', () => {
    const every: { [K in keyof Required<CacheOptions>]: CacheOptions[K] } = {
      store: new Map() as never,
      ttl: { 'journals.get': 1_000 },
      staleIfError: 0,
    };
    expect(() => testClient({ cache: every })).not.toThrow();
  });
});
