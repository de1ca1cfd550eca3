// The other client options, checked at construction and per request: timeout, maxRetries, headers,
// logLevel, and the options object itself.
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { CacheOptions } from '../../src/cache/options.js';
import type { ClientOptions, ClientOptionsBase } from '../../src/client-options.js';
import { ConfigurationError, ConnectionError, MetricClient, MetricError } from '../../src/index.js';
import { resolveClientOptions } from '../../src/resolve-options.js';
import { refusals, rejection, thrown } from '../helpers/calls.js';
import { BASE, json, TEST_KEY, testClient, useMsw } from '../support.js';
import { fromNoEnvironment, journal42On } from './options-setup.js';

const server = useMsw();
const { catchAll } = refusals(server);
const journal42 = journal42On(server);
fromNoEnvironment();

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
