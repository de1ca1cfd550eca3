import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockApi, MOCK_KEYS, mockControl, startMockServer } from '../../src/testing/index.js';
import { resolveMockServerOptions } from '../../src/testing/mock-api-options.js';
import { itRefusesAtCall, itRefusesAtConstruction, type RefusalCase, secret } from '../helpers/refusals.js';

const mockWindow = (perWindow: object) => createMockApi({ limits: { perWindow: perWindow as never } });

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The mock's options (test/helpers/refusals.ts): each refused when given, naming the option. */
const atConstruction: RefusalCase[] = [
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
  // A plan the mock does not know answered 403 "The gold plan does not include API access".
  ['mock', 'keys', () => createMockApi({ keys: { k: 'gold' as never } })],
  ['mock', 'keys', () => createMockApi({ keys: { [secret]: 'Elite' as never } })],
  // Keys no `Authorization: Bearer` header can carry: every request was answered 401.
  ['mock', 'keys', () => createMockApi({ keys: { 'my key': 'elite' } })],
  ['mock', 'keys', () => createMockApi({ keys: { '': 'elite' } })],
  ['mock', 'keys', () => createMockApi({ keys: { ключ: 'elite' } })],
  ['mock', 'keys', () => createMockApi({ keys: { [` ${secret}`]: 'elite' } })],
  // A Map (as `api.keys` is) has no entries Object.entries can see: every key in it was dropped.
  ['mock', 'keys', () => createMockApi({ keys: new Map([['k', 'elite']]) as never })],
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
  ['mock', 'fault.reset', () => createMockApi().faults.next({ reset: 'true' as never })],
  ['mock', 'fault.malformed', () => createMockApi().faults.next({ malformed: 'truncate' as never })],
  ['mock', 'fault.headers', () => createMockApi().faults.next({ status: 503, headers: 'x' as never })],
  ['mock', 'fault.headers', () => createMockApi().faults.next({ headers: { 'retry-after': 1 as never } })],
  ['mock', 'fault.headers', () => createMockApi().faults.next({ headers: { 'bad name': 'x' } })],
  ['mock', 'fault.body', () => createMockApi().faults.next({ status: 500, body: { n: 1n } })],
  // A fault that changed nothing: the request it was for got the real answer.
  ['mock', 'fault.headers', () => createMockApi().faults.next({ headers: { 'retry-after': '1' } })],
  ['mock', 'fault.body', () => createMockApi().faults.next({ body: { error: 'x' } })],
  ['mock', 'fault', () => createMockApi().faults.next({})],
  ['mock', 'fault', () => createMockApi().faults.next({ times: 2, malformed: false })],
  // A function or a symbol JSON drops without a word: the fault went out without that part of its body.
  ['mock', 'fault.body', () => createMockApi().faults.next({ status: 503, body: { a: () => 1 } })],
  ['mock', 'fault.body', () => createMockApi().faults.next({ status: 503, body: () => 1 })],
  ['mock', 'fault.body', () => createMockApi().faults.next({ status: 503, body: [Symbol('x')] })],
  // Misspelt names were ignored: the fault, the limit or the option did nothing.
  ['mock', 'fault.stauts', () => createMockApi().faults.next({ stauts: 503 } as never)],
  ['mock', 'faults.errorrate', () => createMockApi({ faults: { errorrate: 1 } as never })],
  ['mock', 'limits.perminute', () => createMockApi({ limits: { perminute: 1 } as never })],
  ['mock', 'limits.perWindow.window', () => mockWindow({ requests: 1, windowMs: 1, window: 1 })],
  ['mock', 'sizes.journal', () => createMockApi({ sizes: { journal: 3 } as never })],
  ['mock', 'webhooks.url', () => createMockApi({ webhooks: { url: 'http://a.test' } as never })],
  ['mock', 'latencyMs', () => createMockApi({ latencyMs: 5 } as never)],
  // `new URL()` threw a bare TypeError: Invalid URL.
  ['mockControl', 'url', () => mockControl('nope')],
  ['mockControl', 'url', () => mockControl(5 as never)],
  ['mockControl', 'url', () => mockControl(undefined as never)],
  // Its origin is the string 'null': every call went to `null/__mock/…`.
  ['mockControl', 'url', () => mockControl('ftp://127.0.0.1:4010/api/v1')],
  ['mockControl', 'fetchImpl', () => mockControl('http://127.0.0.1:4010/api/v1', 'fetch' as never)],
];

/** The mock server starts asynchronously: its refusals reject, before it listens. */
const atCall: RefusalCase[] = [
  ['mock server', 'port', () => startMockServer({ port: 65_536 })],
  ['mock server', 'controlOrigins', () => startMockServer({ controlOrigins: ['ftp://example.com'] })],
  ['mock server', 'controlOrigins', () => startMockServer({ controlOrigins: 'http://a.test' as never })],
  ['mock server', 'sizes.papers', () => startMockServer({ sizes: { papers: 1.5 } })],
  // Node's listen() reads a host that is not a string as none, and binds every interface.
  ['mock server', 'host', () => startMockServer({ host: [] as never })],
  ['mock server', 'host', () => startMockServer({ host: 7 as never })],
  ['mock server', 'host', () => startMockServer({ host: '' })],
  // Node's own TypeError (a hostname with a null byte), or a failed lookup of a name that is none.
  ['mock server', 'host', () => startMockServer({ host: 'not a host\0' })],
  ['mock server', 'host', () => startMockServer({ host: 'local host' })],
  ['mock server', 'host', () => startMockServer({ host: ' 127.0.0.1' })],
  ['mock server', 'host', () => startMockServer({ host: 'localhost\n' })],
  // The `= {}` default covers `undefined` only: null was read for its `host`, a bare TypeError.
  ['mock server', 'options', () => startMockServer(null as never)],
  // Read as no options at all: the server started.
  ['mock server', 'options', () => startMockServer(5 as never)],
  ['mock server', 'options', () => startMockServer([] as never)],
  ['mock server', 'prot', () => startMockServer({ prot: 8080 } as never)],
  ['mock server', 'prot', () => startMockServer({ prot: 8080, seed: 1 } as never)],
  // Given a mock made already, createMockApi()'s options would go unused.
  ['mock server', 'faults', () => startMockServer({ api: createMockApi(), faults: { errorRate: 1 } })],
  ['mock server', 'api', () => startMockServer({ api: {} as never })],
  ['mock server', 'api', () => startMockServer({ api: null as never })],
];

describe('the mock refuses a bad option with a ConfigurationError naming it', () => {
  itRefusesAtConstruction(atConstruction);
  itRefusesAtCall(atCall);

  it('accepts the bounds', () => {
    const mock = {
      sizes: { journals: 1, papers: 0, authors: 0, subjects: 1, countries: 1 },
      limits: { perMinute: Infinity, perDay: 0, perWindow: { requests: 0, windowMs: 1 } },
      faults: { latencyMs: [0, 600_000], errorRate: 0.5, resetRate: 0.5, errorStatus: 200 },
      webhooks: { urls: ['http://127.0.0.1:1/hook'], timeoutMs: 2 ** 31 - 1 },
    } as const;
    expect(() => createMockApi(mock).faults.next({ status: 599, times: 1, delayMs: 600_000 })).not.toThrow();
    const plans = { a: 'free', b: 'basic', c: 'professional', d: 'elite' } as const;
    expect([...createMockApi({ keys: plans }).keys]).toEqual(expect.arrayContaining(Object.entries(plans)));
    const faults = createMockApi().faults;
    for (const malformed of [true, false, 'truncated', 'shape'] as const) {
      expect(() => faults.next({ malformed, reset: false, delayMs: 0 })).not.toThrow();
    }
    for (const host of ['localhost', '127.0.0.1', '::1', '0.0.0.0', '::', 'mock.test']) {
      expect(resolveMockServerOptions({ host }).host).toBe(host);
    }
    expect(resolveMockServerOptions(undefined as never).host).toBe('127.0.0.1');
  });

  it('names the function called in the refusal of an unknown option, and what it takes', async () => {
    const refusal = (run: () => unknown) =>
      Promise.resolve()
        .then(run)
        .then(
          () => '',
          (error: Error) => error.message,
        );
    expect(await refusal(() => createMockApi({ seeds: 1 } as never))).toBe(
      'createMockApi() takes no option "seeds"',
    );
    expect(await refusal(() => startMockServer({ prot: 1 } as never))).toBe(
      'startMockServer() takes no option "prot"',
    );
    const { mockHandlers } = await import('../../src/testing/msw.js');
    expect(await refusal(() => mockHandlers({ seeds: 1 } as never))).toBe(
      'mockHandlers() takes no option "seeds"',
    );
    // null was read for its `handle`: a bare TypeError.
    expect(await refusal(() => mockHandlers(null as never))).toBe('`options` must be an object');
  });

  it('refuses a clock that gives no milliseconds, where every rate-limit window was new', async () => {
    for (const clock of [() => Number.NaN, () => undefined, () => '2025-03-01T12:00:00Z']) {
      const api = createMockApi({ limits: { perMinute: 1 }, now: clock as never });
      const answer = await api.fetch(`${api.baseUrl}/subjects`, {
        headers: { authorization: `Bearer ${Object.keys(MOCK_KEYS)[0]}` },
      });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ message: expect.stringContaining('now() must return') });
      const update = api.updateScore(1, api.dataset.journal(1)!.metric_score + 1);
      await expect(update).rejects.toMatchObject({ name: 'ConfigurationError', option: 'now' });
    }
  });

  it('refuses a clock outside the years 0000–9999, whose time no API timestamp can write', async () => {
    const first = Date.parse('0000-01-01T00:00:00Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    const headers = { authorization: `Bearer ${Object.keys(MOCK_KEYS)[0]}` };
    for (const ms of [last + 1, first - 1, 9e15, -9e15]) {
      const api = createMockApi({ limits: { perMinute: 1 }, now: () => ms });
      const answer = await api.fetch(`${api.baseUrl}/subjects`, { headers });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ message: expect.stringContaining('9999-12-31T23:59:59Z') });
      const update = api.updateScore(1, api.dataset.journal(1)!.metric_score + 1);
      await expect(update).rejects.toMatchObject({
        name: 'ConfigurationError',
        option: 'now',
        message: expect.stringMatching(/^now\(\) must return a time from 0000-01-01T00:00:00Z/),
      });
    }
    // The first and the last millisecond are times the API writes.
    const early = createMockApi({ limits: { perMinute: 1 }, now: () => first });
    expect((await early.fetch(`${early.baseUrl}/subjects`, { headers })).status).toBe(200);
    const late = createMockApi({ now: () => last });
    const { event } = await late.updateScore(1, late.dataset.journal(1)!.metric_score + 1);
    expect(event.timestamp).toBe('9999-12-31T23:59:59Z');
  });

  it('exports lists no test can change for the others', async () => {
    const testing = await import('../../src/testing/index.js');
    for (const list of [testing.MOCK_PAPER_SORTS, testing.MOCK_AUTHOR_SORTS, testing.MOCK_SHOW_VALUES]) {
      expect(Object.isFrozen(list)).toBe(true);
    }
    expect(testing.MOCK_SHOW_VALUES).toEqual(['active', 'all']);
  });

  it('escapes what it quotes of a value the caller gave: bidi marks, line separators, C1 controls', async () => {
    for (const sent of ['\u202e', '\u2028', '\u0085']) {
      const messages = await Promise.all(
        [
          () => startMockServer({ controlOrigins: [`localhost${sent}:5173`] }),
          () => createMockApi().faults.next({ status: 503, headers: { [`${sent}connection`]: 'x' } }),
          () => createMockApi().updateScore(`7${sent}` as never, 5),
        ].map((run: () => unknown) =>
          Promise.resolve()
            .then(run)
            .then(
              () => 'accepted',
              (error: Error) => error.message,
            ),
        ),
      );
      for (const message of messages) {
        expect(message).not.toBe('accepted');
        expect(message).not.toContain(sent);
      }
    }
  });

  it('mockControl takes the server url, its origin or any URL on that origin', async () => {
    for (const [url, origin] of [
      ['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010'],
      ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
      ['http://localhost:4010/api/v1/journals?page=2#top', 'http://localhost:4010'],
      ['https://[::1]:4010/api/v1', 'https://[::1]:4010'],
    ]) {
      const fetchImpl = vi.fn(async () => Response.json({ pending: 1 }));
      await mockControl(url as string, fetchImpl).fault({ status: 503 });
      expect(fetchImpl).toHaveBeenCalledWith(`${origin}/__mock/faults`, expect.anything());
    }
  });
});
