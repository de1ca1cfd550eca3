// papers.getMany: its results in the order of the DOIs, each DOI looked up once, and what fails per
// item. What rejects the whole call and abort: papers-get-many-abort.test.ts; its concurrency:
// papers-get-many-concurrency.test.ts; refused arguments: papers-get-many-arguments.test.ts.
import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ConnectionError,
  InternalServerError,
  InvalidParameterError,
  NotFoundError,
  type PaperResult,
  ResponseValidationError,
} from '../../src/index.js';
import { refusals } from '../helpers/calls.js';
import { settleOnFakeClock, useFakeClock } from '../helpers/fake-clock.js';
import { BASE, json, testClient, useMsw } from '../support.js';
import { doiOf, dois, ok, paperFor, settle, useGetManyApi } from './get-many-api.js';

const server = useMsw();
const { catchAll } = refusals(server);
const { papersApi, holdingApi } = useGetManyApi(server);

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
