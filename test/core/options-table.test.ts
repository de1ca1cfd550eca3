import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, InvalidParameterError, MetricClient } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { MOCK_API_KEY, MOCK_BASE_URL } from '../../src/testing/index.js';
import {
  expectRefusal,
  itRefusesAtCall,
  itRefusesAtConstruction,
  type RefusalCase,
  secret,
} from '../helpers/refusals.js';

/*
 * The client's, the cache's and a call's options (test/helpers/refusals.ts): each bad option is
 * refused with a ConfigurationError whose `option` names it, before anything is sent. The other
 * entries' tables sit beside their tests: test/redis, test/webhooks and test/testing options.test.ts.
 */

const base = { apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL };
/** A Redis client by its shape alone: construction never calls it. */
const redis = { evalsha: () => Promise.resolve([0, 0]), eval: () => Promise.resolve([0, 0]) };
const client = (options: object) => new MetricClient({ ...base, ...options } as never);
const redisQuota = (options: object) => createRedisQuota({ redis, ...options } as never);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** Construction-time options: the refusal is thrown. */
const atConstruction: RefusalCase[] = [
  ['client', 'options', () => new MetricClient('x' as never)],
  ['client', 'apiKey', () => client({ apiKey: `${secret} with spaces` })],
  ['client', 'apiKey', () => client({ apiKey: 42 })],
  ['client', 'baseUrl', () => client({ baseUrl: 'ftp://example.com/api/v1' })],
  ['client', 'baseUrl', () => client({ baseUrl: `https://user:${secret}@example.com/api/v1` })],
  ['client', 'baseUrl', () => client({ baseUrl: 'https://example.com/api/v1?key=1' })],
  ['client', 'timeout', () => client({ timeout: 0 })],
  ['client', 'timeout', () => client({ timeout: 2 ** 31 })],
  ['client', 'maxRetries', () => client({ maxRetries: 1.5 })],
  ['client', 'maxRetries', () => client({ maxRetries: 11 })],
  ['client', 'maxResponseBytes', () => client({ maxResponseBytes: 0 })],
  ['client', 'fetch', () => client({ fetch: 'fetch' })],
  ['client', 'headers', () => client({ headers: { 'bad name': secret } })],
  ['client', 'hooks', () => client({ hooks: [] })],
  ['client', 'hooks.beforeSend', () => client({ hooks: { beforeSend: [] } })],
  ['client', 'hooks.afterResponse', () => client({ hooks: { afterResponse: ['x'] } })],
  ['client', 'logLevel', () => client({ logLevel: 'loud' })],
  ['client', 'logger', () => client({ logger: 'console' })],
  // A method missing for a level in use threw a bare TypeError from inside the first request.
  ['client', 'logger', () => client({ logLevel: 'debug', logger: { error() {}, warn() {}, info() {} } })],
  ['client', 'logger', () => client({ logLevel: 'error', logger: { error: 'console.error' } })],
  ['client', 'env', () => client({ env: 'METRIC_API_KEY=x' })],
  ['client', 'dangerouslyAllowBrowser', () => client({ dangerouslyAllowBrowser: 'yes' })],
  ['client', 'maxConcurrency', () => client({ maxConcurrency: 0 })],
  ['client', 'maxRequestsPerMinute', () => client({ maxRequestsPerMinute: Number.NaN })],
  ['client', 'quota', () => client({ quota: {} })],
  ['client', 'quota', () => client({ quota: redisQuota({}), maxConcurrency: 2 })],
  ['client.withOptions', 'options', () => client({}).withOptions(null as never)],
  ['client.withOptions', 'timeout', () => client({}).withOptions({ timeout: -1 })],
  ['client', 'timout', () => client({ timout: 5_000 })],
  ['cache', 'cache', () => client({ cache: 'yes' })],
  // A misspelt store was ignored: the client kept answers in memory instead.
  ['cache', 'cache.stor', () => client({ cache: { stor: new Map() } })],
  ['cache', 'cache.store', () => client({ cache: { store: {} } })],
  ['cache', 'cache.staleIfError', () => client({ cache: { staleIfError: -1 } })],
  ['cache', "cache.ttl['journals.gett']", () => client({ cache: { ttl: { 'journals.gett': 1 } } })],
  ['client', 'telemetry', () => client({ telemetry: 'otel' })],
  ['client', 'telemetry', () => client({ telemetry: {} })],
  ['client', 'telemetry', () => client({ telemetry: { tracerProvider: { getTracer: 'x' } } })],
  ['client', 'telemetry', () => client({ telemetry: { meterProvider: {} } })],
];

/** A call's options (and the mock server's): the call returns a promise, which rejects before anything is sent. */
const atCall: RefusalCase[] = [
  ['call', 'options', () => client({}).subjects.list('fast' as never)],
  // A walk spreads the options into its own: the call's are checked as given.
  [
    'call',
    'options',
    () =>
      client({})
        .papers.search({}, 'fast' as never)
        .toArray({ limit: 1 }),
  ],
  ['call', 'timeout', () => client({}).subjects.list({ timeout: -1 })],
  // An object with no valueOf: compared with a number before its type was checked, it threw a TypeError.
  ['call', 'timeout', () => client({}).subjects.list({ timeout: Object.create(null) })],
  ['call', 'maxRetries', () => client({}).subjects.list({ maxRetries: 11 })],
  ['call', 'maxResponseBytes', () => client({}).subjects.list({ maxResponseBytes: 1.5 })],
  ['call', 'signal', () => client({}).subjects.list({ signal: {} as never })],
  // An old polyfill's signal, without throwIfAborted: p-retry and the transport call it.
  ['call', 'signal', () => client({}).subjects.list({ signal: new EventTarget() as never })],
  // Look-alikes missing a method p-retry or the transport calls.
  [
    'call',
    'signal',
    () =>
      client({}).subjects.list({
        signal: { throwIfAborted: true, addEventListener() {}, removeEventListener() {} } as never,
      }),
  ],
  [
    'call',
    'signal',
    () => client({}).subjects.list({ signal: { throwIfAborted() {}, removeEventListener() {} } as never }),
  ],
  // A look-alike with throwIfAborted alone: p-retry listens to it for its aborts.
  [
    'call',
    'signal',
    () => client({}).subjects.list({ signal: { aborted: false, throwIfAborted() {} } as never }),
  ],
  ['call', 'headers', () => client({}).subjects.list({ headers: { 'x-key': `a\n${secret}` } })],
  ['call', 'cache', () => client({ cache: true }).subjects.list({ cache: 'yes' as never })],
  // Refused by a client without a cache too: it ignores a valid mode, not a wrong one.
  ['call', 'cache', () => client({}).subjects.list({ cache: 'yes' as never })],
  ['call', 'cache', () => client({}).subjects.list({ cache: true as never })],
  ['call', 'prefetch', () => client({}).journals.papers(1, {}, { prefetch: 9 }).toArray({ limit: 1 })],
  ['call', 'concurrency', () => client({}).papers.getMany(['10.1/a'], { concurrency: 0 })],
];

describe('every entry refuses a bad option with a ConfigurationError naming it', () => {
  itRefusesAtConstruction(atConstruction);
  itRefusesAtCall(atCall);

  it('names the environment variable when the value came from it', () => {
    vi.stubEnv('METRIC_BASE_URL', 'not a url');
    vi.stubEnv('METRIC_LOG', 'loud');
    const url = (() => {
      try {
        new MetricClient({ apiKey: MOCK_API_KEY });
      } catch (error) {
        return error;
      }
    })();
    expectRefusal(url, 'METRIC_BASE_URL');
    const log = (() => {
      try {
        new MetricClient(base);
      } catch (error) {
        return error;
      }
    })();
    expectRefusal(log, 'METRIC_LOG');
  });

  it('a bad API parameter stays an InvalidParameterError', async () => {
    const error = await client({})
      .journals.get(1.5)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).not.toBeInstanceOf(ConfigurationError);
  });

  it('accepts the bounds', () => {
    expect(() => client({ timeout: 2 ** 31 - 1, maxRetries: 0, maxConcurrency: 1 })).not.toThrow();
  });
});
