import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, InvalidParameterError, MetricClient, MetricError } from '../../src/index.js';
import { createRedisQuota } from '../../src/redis/index.js';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, startMockServer } from '../../src/testing/index.js';
import { createNodeWebhookHandler, createWebhookHandler } from '../../src/webhooks/index.js';

/*
 * One table of the option checker's cases, entry by entry: each bad option is refused with a
 * ConfigurationError whose `option` names it, before anything is sent or started.
 */

const secret = 'sk_live_do_not_echo';
const base = { apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL };
/** A Redis client by its shape alone: construction never calls it. */
const redis = { evalsha: () => Promise.resolve([0, 0]), eval: () => Promise.resolve([0, 0]) };
const client = (options: object) => new MetricClient({ ...base, ...options } as never);
const redisQuota = (options: object) => createRedisQuota({ redis, ...options } as never);
const receivers = [createWebhookHandler, createNodeWebhookHandler] as const;
const mockWindow = (perWindow: object) => createMockApi({ limits: { perWindow: perWindow as never } });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

type Case = readonly [entry: string, option: string, refuse: () => unknown];

/** Construction-time options: the refusal is thrown. */
const atConstruction: Case[] = [
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
  ['client', 'dangerouslyAllowBrowser', () => client({ dangerouslyAllowBrowser: 'yes' })],
  ['client', 'maxConcurrency', () => client({ maxConcurrency: 0 })],
  ['client', 'maxRequestsPerMinute', () => client({ maxRequestsPerMinute: Number.NaN })],
  ['client', 'quota', () => client({ quota: {} })],
  ['client', 'quota', () => client({ quota: redisQuota({}), maxConcurrency: 2 })],
  ['client.withOptions', 'options', () => client({}).withOptions(null as never)],
  ['client.withOptions', 'timeout', () => client({}).withOptions({ timeout: -1 })],
  ['cache', 'cache', () => client({ cache: 'yes' })],
  ['cache', 'cache.store', () => client({ cache: { store: {} } })],
  ['cache', 'cache.staleIfError', () => client({ cache: { staleIfError: -1 } })],
  ['cache', "cache.ttl['journals.gett']", () => client({ cache: { ttl: { 'journals.gett': 1 } } })],
  ['client', 'telemetry', () => client({ telemetry: 'otel' })],
  ['client', 'telemetry', () => client({ telemetry: {} })],
  ['client', 'telemetry', () => client({ telemetry: { tracerProvider: { getTracer: 'x' } } })],
  ['client', 'telemetry', () => client({ telemetry: { meterProvider: {} } })],
  ['redis quota', 'options', () => createRedisQuota(null as never)],
  ['redis quota', 'redis', () => createRedisQuota({ redis: {} } as never)],
  ['redis quota', 'prefix', () => redisQuota({ prefix: '' })],
  ['redis quota', 'maxRequestsPerMinute', () => redisQuota({ maxRequestsPerMinute: 0 })],
  ['redis quota', 'maxRequestsPerDay', () => redisQuota({ maxRequestsPerDay: 1.5 })],
  ['redis quota', 'maxConcurrency', () => redisQuota({ maxConcurrency: '4' })],
  ...receivers.flatMap((create): Case[] => [
    [create.name, 'onEvent', () => create('nope' as never)],
    [create.name, 'options', () => create(() => {}, 5 as never)],
    [create.name, 'maxBodyBytes', () => create(() => {}, { maxBodyBytes: 0 })],
    [create.name, 'bodyTimeoutMs', () => create(() => {}, { bodyTimeoutMs: 2 ** 31 })],
    [create.name, 'onError', () => create(() => {}, { onError: 1 as never })],
    [create.name, 'cache', () => create(() => {}, { cache: {} as never })],
  ]),
  ['mock', 'seed', () => createMockApi({ seed: 1.5 })],
  ['mock', 'sizes.papers', () => createMockApi({ sizes: { papers: -1 } })],
  ['mock', 'limits.perMinute', () => createMockApi({ limits: { perMinute: -1 } })],
  ['mock', 'faults.errorRate', () => createMockApi({ faults: { errorRate: 2 } })],
  ['mock', 'faults.latencyMs', () => createMockApi({ faults: { latencyMs: [5, 1] } })],
  ['mock', 'webhooks.urls', () => createMockApi({ webhooks: { urls: ['ftp://example.com'] } })],
  ['mock', 'fault.times', () => createMockApi({ sizes: { papers: 10 } }).faults.next({ times: 0 })],
  ['mock', 'options', () => createMockApi('small' as never)],
  ['mock', 'baseUrl', () => createMockApi({ baseUrl: 'not a url' })],
  ['mock', 'keys', () => createMockApi({ keys: 'x' as never })],
  ['mock', 'now', () => createMockApi({ now: 5 as never })],
  ['mock', 'control', () => createMockApi({ control: 'yes' as never })],
  ['mock', 'sizes', () => createMockApi({ sizes: 5 as never })],
  ['mock', 'sizes', () => createMockApi({ sizes: { journals: 0, papers: 10 } })],
  ['mock', 'sizes.subjects', () => createMockApi({ sizes: { subjects: 10_000 } })],
  ['mock', 'limits', () => createMockApi({ limits: null as never })],
  ['mock', 'limits.perDay', () => createMockApi({ limits: { perDay: 1.5 } })],
  ['mock', 'limits.perWindow', () => createMockApi({ limits: { perWindow: 5 as never } })],
  ['mock', 'limits.perWindow.requests', () => mockWindow({ requests: -1, windowMs: 1 })],
  ['mock', 'limits.perWindow.windowMs', () => mockWindow({ requests: 1 })],
  ['mock', 'faults', () => createMockApi({ faults: { errorRate: 0.6, resetRate: 0.6 } })],
  ['mock', 'faults.resetRate', () => createMockApi({ faults: { resetRate: Number.NaN } })],
  ['mock', 'faults.malformedRate', () => createMockApi({ faults: { malformedRate: -0.1 } })],
  ['mock', 'faults.errorStatus', () => createMockApi({ faults: { errorStatus: 700 } })],
  ['mock', 'faults.seed', () => createMockApi({ faults: { seed: 0.5 } })],
  ['mock', 'faults.latencyMs', () => createMockApi({ faults: { latencyMs: 600_001 } })],
  ['mock', 'faults.latencyMs', () => createMockApi().faults.configure({ latencyMs: [0, -1] })],
  ['mock', 'webhooks', () => createMockApi({ webhooks: 'x' as never })],
  ['mock', 'webhooks.urls', () => createMockApi({ webhooks: { urls: 'http://a.test' as never } })],
  ['mock', 'webhooks.urls', () => createMockApi().webhooks.subscribe('not a url')],
  ['mock', 'webhooks.fetch', () => createMockApi({ webhooks: { fetch: 'fetch' as never } })],
  ['mock', 'webhooks.timeoutMs', () => createMockApi({ webhooks: { timeoutMs: 0 } })],
  ['mock', 'fault', () => createMockApi().faults.next(null as never)],
  ['mock', 'fault.status', () => createMockApi().faults.next({ status: 700 })],
  ['mock', 'fault.delayMs', () => createMockApi().faults.next({ delayMs: -5 })],
];

/** A call's options (and the mock server's): the call returns a promise, which rejects before anything is sent. */
const atCall: Case[] = [
  ['call', 'options', () => client({}).subjects.list('fast' as never)],
  ['call', 'timeout', () => client({}).subjects.list({ timeout: -1 })],
  // An object with no valueOf: compared with a number before its type was checked, it threw a TypeError.
  ['call', 'timeout', () => client({}).subjects.list({ timeout: Object.create(null) })],
  ['call', 'maxRetries', () => client({}).subjects.list({ maxRetries: 11 })],
  ['call', 'maxResponseBytes', () => client({}).subjects.list({ maxResponseBytes: 1.5 })],
  ['call', 'signal', () => client({}).subjects.list({ signal: {} as never })],
  ['call', 'headers', () => client({}).subjects.list({ headers: { 'x-key': `a\n${secret}` } })],
  ['call', 'cache', () => client({ cache: true }).subjects.list({ cache: 'yes' as never })],
  ['call', 'prefetch', () => client({}).journals.papers(1, {}, { prefetch: 9 }).toArray({ limit: 1 })],
  ['call', 'concurrency', () => client({}).papers.getMany(['10.1/a'], { concurrency: 0 })],
  // The mock server starts asynchronously: its refusals reject too, before it listens.
  ['mock server', 'port', () => startMockServer({ port: 65_536 })],
  ['mock server', 'controlOrigins', () => startMockServer({ controlOrigins: ['ftp://example.com'] })],
  ['mock server', 'controlOrigins', () => startMockServer({ controlOrigins: 'http://a.test' as never })],
  ['mock server', 'sizes.papers', () => startMockServer({ sizes: { papers: 1.5 } })],
];

function expectRefusal(error: unknown, option: string) {
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error).toBeInstanceOf(MetricError);
  expect(error).not.toBeInstanceOf(InvalidParameterError);
  expect((error as ConfigurationError).option).toBe(option);
  expect((error as Error).message).not.toContain(secret);
}

describe('every entry refuses a bad option with a ConfigurationError naming it', () => {
  it.each(atConstruction)('%s: %s', (_entry, option, refuse) => {
    let error: unknown;
    try {
      refuse();
    } catch (caught) {
      error = caught;
    }
    expectRefusal(error, option);
  });

  it.each(atCall)('%s: %s', async (_entry, option, refuse) => {
    const sent = vi.fn(async () => new Response('[]'));
    vi.stubGlobal('fetch', sent);
    let promise: unknown;
    expect(() => {
      promise = refuse();
    }).not.toThrow();
    const error = await (promise as Promise<unknown>).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expectRefusal(error, option);
    expect(sent).not.toHaveBeenCalled();
  });

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
      .journals.get(-1)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).not.toBeInstanceOf(ConfigurationError);
  });

  it('accepts the bounds', () => {
    expect(() => client({ timeout: 2 ** 31 - 1, maxRetries: 0, maxConcurrency: 1 })).not.toThrow();
    expect(() => redisQuota({ maxRequestsPerDay: 1, prefix: 'p' })).not.toThrow();
    for (const create of receivers) {
      expect(() => create(() => {}, { maxBodyBytes: 1, bodyTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
    }
    const mock = {
      sizes: { journals: 1, papers: 0, authors: 0, subjects: 1, countries: 1 },
      limits: { perMinute: Infinity, perDay: 0, perWindow: { requests: 0, windowMs: 1 } },
      faults: { latencyMs: [0, 600_000], errorRate: 0.5, resetRate: 0.5, errorStatus: 200 },
      webhooks: { urls: ['http://127.0.0.1:1/hook'], timeoutMs: 2 ** 31 - 1 },
    } as const;
    expect(() => createMockApi(mock).faults.next({ status: 599, times: 1, delayMs: 600_000 })).not.toThrow();
  });
});
