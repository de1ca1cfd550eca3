import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type APIPromise,
  InternalServerError,
  type Logger,
  type MetricClient,
  NotFoundError,
} from '../../src/index.js';
import { createMockApi, MOCK_DOIS } from '../../src/testing/index.js';
import { rejection } from '../helpers/calls.js';
import { BASE, journalProfile, json, sequence, testClient, useMsw } from '../support.js';

const server = useMsw();

/** The mock API in process, behind a `fetch` that records each request as it is handed over. */
const api = createMockApi({ sizes: { journals: 10, papers: 100, authors: 20, subjects: 5, countries: 5 } });
const sent: string[] = [];
const mockFetch: typeof globalThis.fetch = (input, init) => {
  sent.push(input instanceof Request ? input.url : String(input));
  return api.fetch(input, init);
};
beforeEach(() => {
  sent.length = 0;
  api.reset();
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

const methods: Array<[string, (sdk: MetricClient) => APIPromise<unknown>]> = [
  ['journals.list()', (sdk) => sdk.journals.list()],
  ['journals.get(1)', (sdk) => sdk.journals.get(1)],
  ['journals.score(1)', (sdk) => sdk.journals.score(1)],
  ['papers.get(doi)', (sdk) => sdk.papers.get(MOCK_DOIS[0]!)],
  ['authors.get(1)', (sdk) => sdk.authors.get(1)],
  ['subjects.list()', (sdk) => sdk.subjects.list()],
  ['countries.list()', (sdk) => sdk.countries.list()],
];

describe('APIPromise', () => {
  it.each(methods)('%s is a real Promise, sent once however often it is read', async (_name, call) => {
    const promise = call(testClient({ fetch: mockFetch }, api));
    expect(promise).toBeInstanceOf(Promise);
    const first = await promise;
    const second = await promise;
    const { data, response, requestId } = await promise.withResponse();
    expect(sent).toHaveLength(1);
    expect(second).toEqual(first);
    expect(data).toEqual(first);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(requestId).toMatch(/^req_\d{6,}$/);
    expect(requestId).toBe(api.requests.at(-1)?.requestId);
  });

  it('starts without being awaited, as a plain promise would', async () => {
    const promise = testClient({ fetch: mockFetch }, api).journals.get(1);
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 10_000, interval: 5 });
    await promise;
    expect(sent).toHaveLength(1);
  });

  it.each([
    [
      'then() called at once, behind a call made before it',
      (promise: APIPromise<unknown>) => promise.then((data) => data),
    ],
    [
      'withResponse(), behind a call made before it',
      (promise: APIPromise<unknown>) => promise.withResponse(),
    ],
    ['asResponse(), behind a call made before it', (promise: APIPromise<unknown>) => promise.asResponse()],
  ])('is sent in the order the calls were made when %s', async (_label, read) => {
    const client = testClient({ fetch: mockFetch, maxConcurrency: 1 }, api);
    const first = client.journals.get(1);
    await read(client.journals.get(2));
    await first;
    expect(sent.map((url) => new URL(url).pathname.split('/').at(-1))).toEqual(['1', '2']);
  });

  it.each([
    ['X-Request-Id', { 'x-request-id': 'xr-1' }, 'xr-1'],
    ['Request-Id', { 'request-id': 'r-2' }, 'r-2'],
    ['both (X-Request-Id wins)', { 'x-request-id': 'xr-3', 'request-id': 'r-3' }, 'xr-3'],
    ['neither', {}, undefined],
    ['an empty X-Request-Id beside a Request-Id', { 'x-request-id': '', 'request-id': 'r-4' }, 'r-4'],
  ])('withResponse().requestId from %s', async (_label, headers, expected) => {
    server.use(http.get(`${BASE}/journals/42`, () => json(journalProfile, { headers })));
    const answer = await testClient().journals.get(42).withResponse();
    expect(answer.requestId).toBe(expected);
    expect(answer.data).toEqual(journalProfile);
  });

  it('asResponse() chained on the call sends one request and resolves to the unread, unchecked Response', async () => {
    const body = { anything: 'but a journal profile' };
    const { handler, seen } = sequence('/journals/42', [
      () => json(body, { headers: { 'x-request-id': 'a1' } }),
    ]);
    server.use(handler);
    const response = await testClient().journals.get(42).asResponse();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('a1');
    expect(await response.json()).toEqual(body);
    await tick();
    expect(seen).toHaveLength(1);
  });

  it('asResponse() still rejects a non-2xx with the typed error', async () => {
    const { handler, seen } = sequence('/journals/42', [() => json({ message: 'no' }, { status: 404 })]);
    server.use(handler);
    expect(await rejection(testClient().journals.get(42).asResponse())).toBeInstanceOf(NotFoundError);
    await tick();
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['X-Request-Id on a 404', 404, { 'x-request-id': 'e-1' }, 'e-1', NotFoundError],
    ['Request-Id on a 500', 500, { 'request-id': 'e-2' }, 'e-2', InternalServerError],
    ['neither on a 404', 404, {}, undefined, NotFoundError],
  ])('APIError.requestId from %s', async (_label, status, headers, expected, type) => {
    server.use(http.get(`${BASE}/journals/42`, () => json({ message: 'no' }, { status, headers })));
    const error = await rejection(testClient({ maxRetries: 0 }).journals.get(42));
    expect(error).toBeInstanceOf(type);
    expect((error as NotFoundError).requestId).toBe(expected);
  });

  describe('a failing call that is never awaited', () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    beforeEach(() => {
      unhandled.length = 0;
      process.on('unhandledRejection', listener);
    });
    afterEach(() => void process.off('unhandledRejection', listener));

    it('raises no unhandled rejection', async () => {
      server.use(http.get(`${BASE}/journals/42`, () => json({ message: 'no' }, { status: 404 })));
      // The client logs the failure just before its promise rejects: the moment to start watching.
      let failed!: () => void;
      const logged = new Promise<void>((resolve) => {
        failed = resolve;
      });
      const quiet = () => {};
      const logger: Logger = { error: () => failed(), warn: quiet, info: quiet, debug: quiet };
      testClient({ maxRetries: 0, logLevel: 'error', logger }).journals.get(42);
      await logged;
      // Node reports an unhandled rejection once the microtasks have run: a few turns are plenty.
      for (let i = 0; i < 5; i++) await tick();
      expect(unhandled).toEqual([]);
    });
  });
});
