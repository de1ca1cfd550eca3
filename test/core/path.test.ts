// The query string of src/core/path.ts, and the path values routeTo writes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { routeTo } from '../../src/core/endpoint.js';
import { queryString } from '../../src/core/path.js';

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
