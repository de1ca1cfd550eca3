// papers.getMany: the DOIs, options and iterables it refuses before sending.
import { describe, expect, it } from 'vitest';
import { refusals } from '../helpers/calls.js';
import { testClient, useMsw } from '../support.js';
import { dois } from './get-many-api.js';

const server = useMsw();
const { catchAll, expectRefused } = refusals(server);

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
