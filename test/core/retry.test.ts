import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
} from '../../src/index.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, sequence, testClient, useMsw } from '../support.js';
import { fail, ok, subjects } from './retry-setup.js';

const server = useMsw();

describe('what is retried', () => {
  beforeEach(() => useFakeClock({ random: 0.5 }));

  for (const status of [500, 502, 503, 504, 429]) {
    it(`${status} is retried, and a later success wins`, async () => {
      const { handler, seen } = sequence('/subjects', [fail(status), fail(status), ok]);
      server.use(handler);
      expect(await settleOnFakeClock(testClient().subjects.list())).toEqual(subjects);
      expect(seen).toHaveLength(3);
    });
  }

  for (const [status, type] of [
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
  ] as const) {
    it(`${status} is never retried`, async () => {
      const { handler, seen } = sequence('/subjects', [fail(status), ok]);
      server.use(handler);
      expect(await settleOnFakeClock(testClient({ maxRetries: 5 }).subjects.list())).toBeInstanceOf(type);
      expect(seen).toHaveLength(1);
    });
  }

  it('gives up after maxRetries (client default 2 → 3 attempts)', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(3);
  });

  it('maxRetries per request overrides the client', async () => {
    const { handler, seen } = sequence('/subjects', [fail(503)]);
    server.use(handler);
    expect(
      await settleOnFakeClock(testClient({ maxRetries: 5 }).subjects.list({ maxRetries: 1 })),
    ).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
  });

  it('maxRetries 0 sends once', async () => {
    const { handler, seen } = sequence('/subjects', [fail(500)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient({ maxRetries: 0 }).subjects.list())).toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(1);
  });

  it('a 501 is not retried', async () => {
    const { handler, seen } = sequence('/subjects', [fail(501)]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });

  it('a connection failure is retried', async () => {
    const { handler, seen } = sequence('/subjects', [() => HttpResponse.error(), ok]);
    server.use(handler);
    expect(await settleOnFakeClock(testClient().subjects.list())).toEqual(subjects);
    expect(seen).toHaveLength(2);
  });

  /** A call whose every attempt fails with `fetch failed` caused by `words`: its error and attempts. */
  async function failingWith(words: string) {
    let sent = 0;
    const fetch = async () => {
      sent++;
      throw new TypeError('fetch failed', { cause: new Error(words) });
    };
    const error = await settleOnFakeClock(testClient({ fetch }).subjects.list());
    expect(error).toBeInstanceOf(ConnectionError);
    return { message: (error as Error).message, sent };
  }

  // Node's fetch behind a proxy (NODE_USE_ENV_PROXY=1) when the proxy refuses the tunnel, in its words.
  for (const [status, attempts] of [
    [407, 1],
    [403, 1],
    [502, 3],
    [503, 3],
  ] as const) {
    it(`a proxy's ${status} for the tunnel is ${attempts === 1 ? 'never retried: it would say the same again' : 'retried, as the gateway it is'}`, async () => {
      const { message, sent } = await failingWith(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
      expect(message).toContain(`(${status})`);
      expect(sent).toBe(attempts);
    });
  }

  it('a connection failure that is no proxy refusal is retried, whatever status its words quote', async () => {
    expect((await failingWith('upstream said (404)')).sent).toBe(3);
  });

  it("a proxy's 407 as Node's own tunnel words it is never retried", async () => {
    expect((await failingWith('Proxy Authentication Required (407)')).sent).toBe(1);
  });
});

it('retries honour the per-request path (the same URL each time)', async () => {
  const { handler, seen } = sequence('/subjects', [fail(500), ok]);
  server.use(handler);
  await testClient().subjects.list();
  expect(seen.map((r) => r.url)).toEqual([`${BASE}/subjects`, `${BASE}/subjects`]);
});

it('http handler sanity: unhandled paths are errors, not network leaks', async () => {
  server.use(http.get(`${BASE}/other`, () => ok()));
  await expect(testClient({ maxRetries: 0 }).subjects.list()).rejects.toThrow();
});
