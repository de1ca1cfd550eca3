// papers.getMany: what rejects the whole call (the lookups in flight aborted, nothing more sent), and
// the caller's abort.
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  PermissionDeniedError,
  QuotaUnavailableError,
  RateLimitError,
  RequestAbortedError,
  type SharedQuota,
} from '../../src/index.js';
import { refusals, rejection } from '../helpers/calls.js';
import { json, testClient, useMsw } from '../support.js';
import { dois, ok, settle, useGetManyApi } from './get-many-api.js';

const server = useMsw();
const { catchAll } = refusals(server);
const { papersApi, holdingApi } = useGetManyApi(server);

describe('papers.getMany: what rejects the whole call', () => {
  const status = (code: number, retryAfter?: string) => () =>
    json({ message: 'no' }, { status: code, headers: retryAfter ? { 'retry-after': retryAfter } : {} });
  const fatal: Array<[string, () => Response, new (...args: never[]) => Error, { maxRetries?: number }]> = [
    ['401', status(401), AuthenticationError, {}],
    ['403', status(403), PermissionDeniedError, {}],
    ['429 asking for 2 minutes', status(429, '120'), RateLimitError, {}],
    ['429 with retries used up', status(429, '0'), RateLimitError, { maxRetries: 0 }],
  ];

  it.each(fatal)('a %s, one at a time: nothing after it is sent', async (_label, reply, type, options) => {
    const seen = papersApi((doi) => (doi === '10.1000/p1' ? reply() : ok(doi)));
    const error = await rejection(testClient().papers.getMany(dois(6), { ...options, concurrency: 1 }));
    expect(error).toBeInstanceOf(type);
    await settle();
    expect(seen).toEqual(['10.1000/p0', '10.1000/p1']);
  });

  it.each(fatal)(
    'a %s: the lookups in flight are aborted, nothing more is sent',
    async (_l, reply, type, options) => {
      const { held, seen, holding } = holdingApi((doi) => (doi === '10.1000/p2' ? reply() : undefined));
      const call = rejection(testClient().papers.getMany(dois(8), { ...options, concurrency: 3 }));
      await holding(2);
      // p0 and p1 are never answered: the call settles only because it aborted them.
      const error = await call;
      expect(error).toBeInstanceOf(type);
      expect(held.every((h) => h.request.signal.aborted)).toBe(true);
      for (const h of held) h.release();
      await settle();
      expect(seen.sort()).toEqual(['10.1000/p0', '10.1000/p1', '10.1000/p2']);
    },
  );
});

describe('papers.getMany: a shared quota that cannot tell (Redis down)', () => {
  it('rejects the whole call with its QuotaUnavailableError, each DOI not waiting it out in turn', async () => {
    const seen = papersApi(ok);
    let asked = 0;
    const down = new QuotaUnavailableError('Redis did not answer within 1000 ms; nothing was sent');
    const quota: SharedQuota = {
      forClient: () => ({
        run: () => {
          asked++;
          return Promise.reject(down);
        },
        pause: () => {},
        block: () => {},
      }),
    };
    const error = await rejection(testClient({ quota }).papers.getMany(dois(40), { concurrency: 4 }));
    expect(error).toBe(down);
    await settle();
    // The lookups already started, no more: every other one would meet the same Redis.
    expect(asked).toBeLessThanOrEqual(4);
    expect(seen).toEqual([]);
  });
});

describe('papers.getMany: abort', () => {
  it('aborting mid-way rejects with RequestAbortedError, stops sending, leaves nothing unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { held, seen, holding } = holdingApi();
      const controller = new AbortController();
      const call = rejection(
        testClient().papers.getMany(dois(6), { concurrency: 2, signal: controller.signal }),
      );
      await holding(2);
      held[0]!.release();
      await holding(3);
      controller.abort('user gave up');
      const error = await call;
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect((error as RequestAbortedError).cause).toBe('user gave up');
      for (const h of held) h.release();
      await settle();
      expect(seen).toEqual(['10.1000/p0', '10.1000/p1', '10.1000/p2']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an already aborted signal sends nothing', async () => {
    const seen = catchAll();
    const error = await rejection(testClient().papers.getMany(dois(3), { signal: AbortSignal.abort('no') }));
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as RequestAbortedError).cause).toBe('no');
    expect(seen).toHaveLength(0);
  });

  it('aborting after the call resolved changes nothing', async () => {
    papersApi();
    const controller = new AbortController();
    const results = await testClient().papers.getMany(dois(2), { signal: controller.signal });
    controller.abort();
    expect(results.map((r) => r.paper?.doi)).toEqual(dois(2));
  });
});
