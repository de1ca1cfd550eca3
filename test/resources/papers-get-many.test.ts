import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  NotFoundError,
  type PaperResult,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  ResponseValidationError,
} from '../../src/index.js';
import { refusals, rejection } from '../helpers/calls.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, testClient, useMsw } from '../support.js';

const server = useMsw();
const { catchAll, expectRefused } = refusals(server);

const paperFor = (doi: string) => ({
  id: 1,
  title: `Paper ${doi}`,
  authors: 'A. Author',
  doi,
  year: 2021,
  citations: 3,
  abstract: 'We test.',
});
const ok = (doi: string) => json(paperFor(doi));
const dois = (n: number) => Array.from({ length: n }, (_, i) => `10.1000/p${i}`);

/** The DOI as the server received it: the fourth path segment, decoded. */
const doiOf = (request: Request) => decodeURIComponent(new URL(request.url).pathname.split('/')[4]!);

/** `GET /papers/{doi}` answered by `reply(doi)`, every DOI received recorded in order. */
function papersApi(reply: (doi: string) => Response | Promise<Response> = ok) {
  const seen: string[] = [];
  server.use(
    http.get(`${BASE}/papers/*`, ({ request }) => {
      const doi = doiOf(request);
      seen.push(doi);
      return reply(doi);
    }),
  );
  return seen;
}

interface Held {
  readonly doi: string;
  readonly request: Request;
  release(response?: Response): void;
}

/** Held requests are released at the end of each test, whatever became of their callers. */
const releaseAll: Array<() => void> = [];
afterEach(() => {
  for (const release of releaseAll.splice(0)) release();
});

/**
 * `GET /papers/{doi}` held until the test releases it (`decide` may answer some DOIs at once):
 * answers complete in whatever order the test chooses, and what is in flight can be counted.
 */
function holdingApi(decide: (doi: string) => Response | undefined = () => undefined) {
  const held: Held[] = [];
  const seen: string[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  server.use(
    http.get(`${BASE}/papers/*`, ({ request }) => {
      const doi = doiOf(request);
      seen.push(doi);
      const now = decide(doi);
      if (now) return now;
      return new Promise<Response>((resolve) => {
        const release = (response?: Response) => resolve(response ?? ok(doi));
        held.push({ doi, request, release });
        releaseAll.push(() => release());
        for (const waiter of waiting.filter((w) => held.length >= w.count)) waiter.resolve();
      });
    }),
  );
  /** Resolves once `count` requests are held (the test's own timeout catches a shortfall). */
  const holding = (count: number) =>
    new Promise<void>((resolve) => {
      if (held.length >= count) resolve();
      else waiting.push({ count, resolve });
    });
  return { held, seen, holding };
}

/** Lets any request that was about to be sent reach the server. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('papers.getMany: results', () => {
  it('keeps the order of the DOIs, whatever order the answers come in', async () => {
    const { held, holding } = holdingApi();
    const input = dois(5);
    const call = testClient().papers.getMany(input, { concurrency: 5 });
    await holding(5);
    for (const index of [4, 2, 0, 3, 1]) {
      held.find((h) => h.doi === input[index])!.release();
      await settle();
    }
    const results = await call;
    expectTypeOf(results).toEqualTypeOf<PaperResult[]>();
    expect(results).toEqual(input.map((doi) => ({ doi, paper: paperFor(doi) })));
  });

  it('looks up a DOI given twice, or in another ASCII case, once; non-ASCII case is not folded', async () => {
    const seen = papersApi();
    const input = [
      '10.1000/Ab',
      '10.1000/x',
      '10.1000/ab',
      '10.1000/Ab',
      '10.1000/Ü',
      '10.1000/ü',
      '10.1000/x',
    ];
    const results = await testClient().papers.getMany(input);
    expect([...seen].sort()).toEqual(['10.1000/Ab', '10.1000/x', '10.1000/Ü', '10.1000/ü'].sort());
    expect(results.map((r) => r.doi)).toEqual(input);
    expect(results[2]!.paper).toBe(results[0]!.paper);
    expect(results[3]!.paper).toBe(results[0]!.paper);
    expect(results[6]!.paper).toBe(results[1]!.paper);
    expect(results[4]!.paper).not.toBe(results[5]!.paper);
  });

  it('reports a refused DOI and a 404 per item; the others are found', async () => {
    const seen = papersApi((doi) =>
      doi === '10.1000/missing' ? json({ message: 'No paper' }, { status: 404 }) : ok(doi),
    );
    const results = await testClient().papers.getMany(['not-a-doi', '10.1000/missing', '10.1000/ok', '']);
    expect(seen.sort()).toEqual(['10.1000/missing', '10.1000/ok']);
    expect(results[0]!.error).toBeInstanceOf(InvalidParameterError);
    expect((results[0]!.error as InvalidParameterError).parameter).toBe('doi');
    expect(results[1]!.error).toBeInstanceOf(NotFoundError);
    expect(results[2]).toEqual({ doi: '10.1000/ok', paper: paperFor('10.1000/ok') });
    expect(results[3]!.error).toBeInstanceOf(InvalidParameterError);
    expect(results.map((r) => r.doi)).toEqual(['not-a-doi', '10.1000/missing', '10.1000/ok', '']);
  });

  it('a duplicated DOI that fails shares one error', async () => {
    const seen = papersApi(() => json({}, { status: 404 }));
    const results = await testClient().papers.getMany(['10.1000/gone', '10.1000/GONE']);
    expect(seen).toEqual(['10.1000/gone']);
    expect(results[0]!.error).toBeInstanceOf(NotFoundError);
    expect(results[1]!.error).toBe(results[0]!.error);
  });

  it('sends the request options with every lookup', async () => {
    const headers: Array<string | null> = [];
    server.use(
      http.get(`${BASE}/papers/*`, ({ request }) => {
        headers.push(request.headers.get('x-trace'));
        return ok(doiOf(request));
      }),
    );
    await testClient().papers.getMany(dois(3), { headers: { 'x-trace': 't1' }, timeout: 5_000 });
    expect(headers).toEqual(['t1', 't1', 't1']);
  });

  it('takes any iterable: a Set, a generator', async () => {
    papersApi();
    const generated = (function* () {
      yield* ['10.1000/a', '10.1000/b'];
    })();
    for (const input of [new Set(['10.1000/a', '10.1000/b']), generated]) {
      const results = await testClient().papers.getMany(input);
      expect(results.map((r) => r.paper?.doi)).toEqual(['10.1000/a', '10.1000/b']);
    }
  });

  it('resolves [] for no DOIs, sending nothing', async () => {
    const seen = catchAll();
    await expect(testClient().papers.getMany([])).resolves.toEqual([]);
    await expect(testClient().papers.getMany(new Set<string>())).resolves.toEqual([]);
    expect(seen).toHaveLength(0);
  });
});

describe('papers.getMany: failures after retries are per item (fake timers)', () => {
  it('a 500, a dropped connection and an invalid body each fail their item only', async () => {
    useFakeClock({ random: 0.5 });
    const seen = papersApi((doi) => {
      if (doi === '10.1000/down') return json({ message: 'boom' }, { status: 500 });
      if (doi === '10.1000/reset') return HttpResponse.error();
      if (doi === '10.1000/bad') return json({ ...paperFor(doi), year: '2021' });
      return ok(doi);
    });
    const input = ['10.1000/down', '10.1000/a', '10.1000/reset', '10.1000/bad', '10.1000/b'];
    const results = (await settleOnFakeClock(testClient().papers.getMany(input))) as PaperResult[];
    // The client's default maxRetries is 2: three attempts for what is retried, one for the body.
    expect(seen.filter((d) => d === '10.1000/down')).toHaveLength(3);
    expect(seen.filter((d) => d === '10.1000/reset')).toHaveLength(3);
    expect(seen.filter((d) => d === '10.1000/bad')).toHaveLength(1);
    expect(results[0]!.error).toBeInstanceOf(InternalServerError);
    expect(results[2]!.error).toBeInstanceOf(ConnectionError);
    expect(results[3]!.error).toBeInstanceOf(ResponseValidationError);
    expect(results[1]!.paper).toEqual(paperFor('10.1000/a'));
    expect(results[4]!.paper).toEqual(paperFor('10.1000/b'));
  });

  it('a 429 that is retried and then answered is no failure at all', async () => {
    useFakeClock({ random: 0.5 });
    let limited = false;
    const seen = papersApi((doi) => {
      if (doi !== '10.1000/b' || limited) return ok(doi);
      limited = true;
      return json({}, { status: 429, headers: { 'retry-after': '1' } });
    });
    const results = (await settleOnFakeClock(
      testClient().papers.getMany(dois(2).concat('10.1000/b')),
    )) as PaperResult[];
    expect(results.every((r) => r.error === undefined)).toBe(true);
    expect(seen.filter((d) => d === '10.1000/b')).toHaveLength(2);
  });

  it('maxRetries: 0 reports a 500 after one attempt', async () => {
    const seen = papersApi(() => json({}, { status: 500 }));
    const [result] = await testClient().papers.getMany(['10.1000/x'], { maxRetries: 0 });
    expect(result!.error).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(1);
  });
});

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

describe('papers.getMany: concurrency', () => {
  it.each<[number | undefined, number]>([
    [undefined, 4],
    [1, 1],
    [3, 3],
    [16, 16],
  ])(
    'concurrency %s: at most %i lookups in flight, each answer letting the next one go',
    async (given, bound) => {
      const { held, seen, holding } = holdingApi();
      const input = dois(bound + 6);
      const call = testClient().papers.getMany(input, given === undefined ? {} : { concurrency: given });
      await holding(bound);
      await settle();
      expect(seen).toHaveLength(bound);
      for (let released = 0; released < 6; released++) {
        held[released]!.release();
        await holding(bound + released + 1);
        await settle();
        expect(seen).toHaveLength(bound + released + 1);
      }
      for (const h of held) h.release();
      expect((await call).map((r) => r.doi)).toEqual(input);
    },
  );
});

describe('papers.getMany under the client quota', () => {
  it("the client's maxConcurrency bounds it too; a lookup waiting its turn is aborted unsent", async () => {
    const { held, seen, holding } = holdingApi();
    const controller = new AbortController();
    const call = rejection(
      testClient({ maxConcurrency: 2 }).papers.getMany(dois(6), {
        concurrency: 8,
        signal: controller.signal,
      }),
    );
    await holding(2);
    await settle();
    expect(seen).toHaveLength(2);
    controller.abort('enough');
    expect(await call).toBeInstanceOf(RequestAbortedError);
    for (const h of held) h.release();
    await settle();
    expect(seen).toHaveLength(2);
  });
});

describe('papers.getMany: refused arguments', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['one DOI string', '10.1000/abc'],
    ['a plain object', { 0: '10.1000/a', length: 1 }],
    ['an array with a number', ['10.1000/a', 7]],
    ['an array with null', [null]],
    ['a Map', new Map([['10.1000/a', '10.1000/b']])],
    ['an object whose iterator is not a function', { [Symbol.iterator]: 5 }],
  ])('dois as %s', async (_label, value) => {
    await expectRefused(() => testClient().papers.getMany(value as never), 'dois');
  });

  it.each<[unknown]>([[0], [17], [1.5], ['4'], [Number.NaN], [null], [Number.POSITIVE_INFINITY], [-1]])(
    'concurrency %j',
    async (concurrency) => {
      await expectRefused(
        () => testClient().papers.getMany(dois(2), { concurrency } as never),
        'concurrency',
      );
    },
  );

  it.each<[string, unknown, string]>([
    ['options null', null, 'options'],
    ["options 'fast'", 'fast', 'options'],
    ['a signal that is not one', { signal: {} }, 'signal'],
    ['timeout -1', { timeout: -1 }, 'timeout'],
    ['maxRetries 11', { maxRetries: 11 }, 'maxRetries'],
    ['headers that are not headers', { headers: { 'bad name': 'x' } }, 'headers'],
  ])('%s', async (_label, options, parameter) => {
    await expectRefused(() => testClient().papers.getMany(dois(2), options as never), parameter);
  });

  it('an iterable that throws rejects the call with its error', async () => {
    const seen = catchAll();
    const broken = (function* () {
      yield '10.1000/a';
      throw new Error('disk gone');
    })();
    await expect(testClient().papers.getMany(broken)).rejects.toThrow('disk gone');
    expect(seen).toHaveLength(0);
  });

  it('an iterable that never ends is refused past 100,000 DOIs, having sent nothing', async () => {
    let read = 0;
    const endless = (function* () {
      for (;;) yield `10.1000/x${read++}`;
    })();
    const error = await expectRefused(() => testClient().papers.getMany(endless), 'dois');
    expect(error.message).toBe(
      'dois holds more than 100000 DOIs: getMany holds every answer until it ends; pass them in parts',
    );
    expect(read).toBe(100_001);
  });
});
