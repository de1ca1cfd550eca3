// The parameter checks of src/core/params.ts: ids, integers, booleans, strings, choices, the params object.
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkBoolean,
  checkId,
  checkInteger,
  checkOneOf,
  checkParams,
  checkPositiveInteger,
  checkString,
} from '../../src/core/params.js';
import { InvalidParameterError } from '../../src/index.js';
import { refusal } from './params-setup.js';

/** Any value at all, kept shallow so that thousands of runs stay fast. */
const any = fc.anything({ maxDepth: 1, maxKeys: 3, size: 'xsmall' });

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
    expect(error.message).toBe(`journal_id must be a safe integer, ${described}`);
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
    expect(error.message).toMatch(/^per_page must be a safe integer ≥ 1, got /);
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
    expect(error.message).toMatch(/^year must be a safe integer, got /);
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
