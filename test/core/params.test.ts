import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { routeTo } from '../../src/core/endpoint.js';
import {
  checkBoolean,
  checkDoi,
  checkId,
  checkInteger,
  checkOneOf,
  checkParams,
  checkPositiveInteger,
  checkString,
} from '../../src/core/params.js';
import { queryString } from '../../src/core/path.js';
import { InvalidParameterError, MetricError } from '../../src/index.js';

/** Any value at all, kept shallow so that thousands of runs stay fast. */
const any = fc.anything({ maxDepth: 1, maxKeys: 3, size: 'xsmall' });

/** The InvalidParameterError `run` throws; fails the test when it throws nothing or something else. */
function refusal(run: () => unknown): InvalidParameterError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(error).toBeInstanceOf(MetricError);
    return error as InvalidParameterError;
  }
  throw new Error('expected an InvalidParameterError, nothing was thrown');
}

const loneSurrogate = /[\uD800-\uDFFF]/u;

describe('checkId', () => {
  // The document says an id is an integer, no more: 0 and negative ones go to the server.
  it.each([1, 2, 42, Number.MAX_SAFE_INTEGER, 0, -1, Number.MIN_SAFE_INTEGER])(
    'accepts %d and returns it',
    (id) => {
      expect(checkId('id', id)).toBe(id);
    },
  );

  it.each<[unknown, string]>([
    [1.5, 'got 1.5'],
    [Number.NaN, 'got NaN'],
    [Number.POSITIVE_INFINITY, 'got Infinity'],
    ['7', 'got string "7"'],
    [2 ** 53, 'got 9007199254740992'],
    [null, 'got null'],
    [undefined, 'got nothing'],
    [[7], 'got an array'],
    [{ id: 7 }, 'got an object'],
    [7n, 'got bigint'],
    [true, 'got true'],
  ])('refuses %o, naming the parameter and describing the value', (value, described) => {
    const error = refusal(() => checkId('journal_id', value));
    expect(error.parameter).toBe('journal_id');
    expect(error.message).toBe(`journal_id must be an integer, ${described}`);
  });

  it('accepts exactly the safe integers (any value)', () => {
    fc.assert(
      fc.property(fc.oneof(any, fc.integer(), fc.double(), fc.maxSafeInteger()), (value) => {
        let accepted: boolean;
        try {
          accepted = checkId('id', value) === value;
        } catch (error) {
          if (!(error instanceof InvalidParameterError) || error.parameter !== 'id') throw error;
          accepted = false;
        }
        return accepted === Number.isSafeInteger(value);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('checkPositiveInteger', () => {
  it('passes undefined through (the parameter is absent)', () => {
    expect(checkPositiveInteger('page', undefined)).toBeUndefined();
  });

  it.each([1, 50, Number.MAX_SAFE_INTEGER])('accepts %d', (value) => {
    expect(checkPositiveInteger('per_page', value)).toBe(value);
  });

  it.each<[unknown]>([[0], [-1], [1.5], ['2'], [null], [Number.NaN], [2 ** 53]])('refuses %o', (value) => {
    const error = refusal(() => checkPositiveInteger('per_page', value));
    expect(error.parameter).toBe('per_page');
    expect(error.message).toMatch(/^per_page must be an integer ≥ 1, got /);
  });
});

describe('checkInteger', () => {
  it.each([0, -350, 2021, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER])('accepts %d', (value) => {
    expect(checkInteger('year', value)).toBe(value);
  });

  it('passes undefined through', () => {
    expect(checkInteger('year', undefined)).toBeUndefined();
  });

  it.each<[unknown]>([
    [2020.5],
    ['2020'],
    [null],
    [Number.NaN],
    [Number.NEGATIVE_INFINITY],
    [2 ** 53],
    [-(2 ** 53)],
  ])('refuses %o', (value) => {
    const error = refusal(() => checkInteger('year', value));
    expect(error.parameter).toBe('year');
    expect(error.message).toMatch(/^year must be an integer, got /);
  });
});

describe('checkBoolean', () => {
  it.each([true, false, undefined])('accepts %o', (value) => {
    expect(checkBoolean('oa', value)).toBe(value);
  });

  it.each<[unknown]>([['true'], ['false'], [1], [0], [null], [{}]])('refuses %o', (value) => {
    const error = refusal(() => checkBoolean('oa', value));
    expect(error.parameter).toBe('oa');
    expect(error.message).toMatch(/^oa must be a boolean, got /);
  });
});

describe('checkString', () => {
  it.each(['', 'graphene', 'a&b=c', '😀', '\uD83D\uDE00x', '\u0000'])('accepts %j', (value) => {
    expect(checkString('q', value)).toBe(value);
  });

  it('passes undefined through', () => {
    expect(checkString('q', undefined)).toBeUndefined();
  });

  it.each<[unknown]>([[5], [null], [['q']], [{ toString: () => 'q' }], [true]])(
    'refuses the non-string %o',
    (value) => {
      const error = refusal(() => checkString('sort', value));
      expect(error.parameter).toBe('sort');
      expect(error.message).toMatch(/^sort must be a string, got /);
    },
  );

  it.each(['\uD800', '\uDFFF', 'a\uD800b', 'x\uDE00', '\uDE00\uD83D'])(
    'refuses the lone surrogate in %j',
    (value) => {
      const error = refusal(() => checkString('q', value));
      expect(error.parameter).toBe('q');
      expect(error.message).toContain('q');
      expect(error.message).toContain('surrogate');
    },
  );

  it('accepts exactly the well-formed strings (any value), and what it accepts encodes', () => {
    fc.assert(
      fc.property(
        fc.oneof(any, fc.string({ unit: 'binary' }), fc.string({ unit: 'binary-ascii' })),
        (value) => {
          let accepted: boolean;
          try {
            accepted = checkString('q', value) === value;
          } catch (error) {
            if (!(error instanceof InvalidParameterError)) throw error;
            accepted = false;
          }
          const expected = value === undefined || (typeof value === 'string' && !loneSurrogate.test(value));
          if (accepted && typeof value === 'string') encodeURIComponent(value); // would throw URIError
          return accepted === expected;
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('checkOneOf', () => {
  it.each(['active', 'all', undefined])('accepts %o', (value) => {
    expect(checkOneOf('show', value, ['active', 'all'])).toBe(value);
  });

  it.each<[unknown]>([['none'], ['ALL'], [''], [null], [true], [['all']]])(
    'refuses %o, listing the allowed values',
    (value) => {
      const error = refusal(() => checkOneOf('show', value, ['active', 'all']));
      expect(error.parameter).toBe('show');
      expect(error.message).toMatch(/^show must be "active" or "all", got /);
    },
  );
});

describe('checkParams', () => {
  it('turns undefined into an empty object', () => {
    expect(checkParams(undefined)).toEqual({});
  });

  it('returns a plain object as is (null-prototype objects too)', () => {
    const params = { q: 'x' };
    expect(checkParams(params)).toBe(params);
    const bare = Object.assign(Object.create(null) as object, { q: 'x' });
    expect(checkParams(bare)).toBe(bare);
    // A plain object of another realm (an iframe, a vm context) is as plain.
    const foreign = runInNewContext('({ q: "x" })') as object;
    expect(checkParams(foreign)).toBe(foreign);
  });

  it.each<[unknown, string]>([
    [null, 'got null'],
    ['q=x', 'got string "q=x"'],
    [5, 'got 5'],
    [[], 'got an array'],
    [true, 'got true'],
    // What keeps its entries where no parameter is read: never sent without them.
    [new Map([['q', 'x']]), 'got an object'],
    [new URLSearchParams({ q: 'x' }), 'got an object'],
    [new Date(0), 'got an object'],
    [
      new (class Search {
        q = 'x';
      })(),
      'got an object',
    ],
  ])('refuses %o', (value, described) => {
    const error = refusal(() => checkParams(value as object));
    expect(error.parameter).toBe('params');
    expect(error.message).toBe(`parameters must be a plain object, ${described}`);
  });
});

describe('checkDoi', () => {
  it.each([
    '10.1000/xyz123',
    '10.1000/abc/def',
    '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K',
    '10.5555/üñí-ç',
    '10.1000/a?b#c%d&e=f',
    '10.1000/with spaces',
    '10.1000//',
    '10.1000.5/x',
    '10.😀/😀',
  ])('accepts %j', (doi) => {
    expect(checkDoi(doi)).toBe(doi);
  });

  it.each<[unknown]>([
    [''],
    ['abc'],
    ['11.1000/x'],
    ['10.1000'],
    ['10.1000/'],
    [' 10.1000/x'],
    ['10. 1000/x'],
    ['10.10\u00a000/x'],
    ['10./x'],
    ['10/x'],
    ['doi:10.1000/x'],
    ['https://doi.org/10.1000/x'],
    ['10.1/\uD800'],
    // A trailing space or newline (a line read from a file), a control character: sent before.
    ['10.1000/ '],
    ['10.1000/xyz '],
    ['10.1000/xyz\n'],
    ['10.1000/\n'],
    ['10.1000/x\u0000y'],
    ['10.1000/\t'],
    ['10.10\u000100/x'],
    ['10.1\uDBFF/x'],
    // What a terminal may act on (core/escape.ts's class): a bidi override makes one DOI read as another.
    ['10.1000/\u202Elive'],
    ['10.10\u202E00/x'],
    ['10.1000/a\u200Eb'],
    ['10.1000/\u2066x\u2069'],
    ['10.1000/a\u061Cb'],
    ['10.1000/a\u2028b'],
    ['10.1000/\uFEFFx'],
    [123],
    [10.1],
    [null],
    [undefined],
    [{}],
  ])('refuses %o, naming doi and showing the expected form', (value) => {
    const error = refusal(() => checkDoi(value));
    expect(error.parameter).toBe('doi');
    expect(error.message).toMatch(/^doi must be a DOI such as "10\.1000\/xyz123"/);
  });

  it('a refused right-to-left override is shown escaped, never acting on the terminal', () => {
    const error = refusal(() => checkDoi('10.1000/\u202Elive'));
    expect(error.message).toContain('got string "10.1000/\\u202elive"');
    expect(error.message).not.toContain('\u202E');
  });

  it('a long refused value is shown shortened', () => {
    const error = refusal(() => checkDoi(`x${'y'.repeat(100)}`));
    expect(error.message).toContain(`got string "x${'y'.repeat(39)}…"`);
    expect(error.message).not.toContain('y'.repeat(41));
  });
});

describe('queryString (src/core/path.ts) and the path values of routeTo', () => {
  it('is empty when every value is undefined', () => {
    expect(queryString({})).toBe('');
    expect(queryString({ a: undefined, b: undefined })).toBe('');
  });

  it('keeps order, skips undefined, and stringifies numbers and booleans', () => {
    expect(queryString({ q: 'x', year: undefined, oa: false, page: 2, per_page: 0 })).toBe(
      '?q=x&oa=false&page=2&per_page=0',
    );
  });

  it('percent-encodes keys and values', () => {
    expect(queryString({ 'a b': 'c&d=e/f?g#h+i%', é: '😀' })).toBe(
      '?a%20b=c%26d%3De%2Ff%3Fg%23h%2Bi%25&%C3%A9=%F0%9F%98%80',
    );
  });

  it('round-trips any well-formed keys and values through URLSearchParams', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 8 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(text, text), { selector: ([key]) => key, maxLength: 5 }),
        (entries) => {
          const qs = queryString(Object.fromEntries(entries));
          const parsed = [...new URLSearchParams(qs)];
          // Object key order puts integer-like keys first; compare as sets of pairs.
          return (
            parsed.length === entries.length &&
            entries.every(([key, value]) => parsed.some(([k, v]) => k === key && v === value))
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('routeTo writes an id as its digits and a DOI as one segment, the text around them kept', () => {
    expect(routeTo(endpoints.journals.score, { id: 42 }).path).toBe('/journals/42/score');
    expect(routeTo(endpoints.papers.get, { doi: '10.1000/a b?c#d' }).path).toBe(
      '/papers/10.1000%2Fa%20b%3Fc%23d',
    );
    expect(routeTo(endpoints.journals.list).path).toBe('/journals');
  });
});
