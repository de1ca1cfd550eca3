// papers.get: a DOI sent as one path segment that decodes back to it, whatever it holds; the papers
// and DOIs it refuses.
import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { routeTo } from '../../src/core/endpoint.js';
import { hasUnsafe } from '../../src/core/escape.js';
import { checkDoi } from '../../src/core/params.js';
import type { Paper } from '../../src/index.js';
import { expectRefusedResponse, refusals, target } from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';
import { paper } from './fixtures.js';

const server = useMsw();

const { expectRefused } = refusals(server);

describe('papers.get', () => {
  it('GETs /papers/{doi} and returns the typed paper, extra fields kept', async () => {
    const { handler, seen } = sequence('/papers/*', [() => json({ ...paper, pdf: 'https://x/y.pdf' })]);
    server.use(handler);
    const result = await testClient().papers.get('10.1000/abc');
    expectTypeOf(result).toEqualTypeOf<Paper>();
    expect(target(seen[0]!)).toBe('/api/v1/papers/10.1000%2Fabc');
    expect(result).toEqual({ ...paper, pdf: 'https://x/y.pdf' });
  });

  const dois = [
    '10.1000/abc/def',
    '10.1002/(SICI)1097-4636(199709)36:4<517::AID-JBM10>3.0.CO;2-K',
    '10.5555/üñí-ç',
    '10.1000/a?b#c%d&e=f',
    '10.1000/with some  spaces',
    '10.1000/../../journals/1',
    '10.1000/..',
    '10.1000/%2F%3F%23',
    '10.1000/a+b;c:d@e$f,g',
    '10.1000/😀\u0301',
    '10.12345.6/x/y?z',
  ];
  it.each(dois)('sends %j as one path segment that decodes back to it', async (doi) => {
    const { handler, seen } = sequence('/papers/*', [() => json({ ...paper, doi })]);
    server.use(handler);
    const result = await testClient().papers.get(doi);
    expect(result.doi).toBe(doi);
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!.url);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    const segments = url.pathname.split('/');
    expect(segments).toHaveLength(5);
    expect(segments.slice(0, 4)).toEqual(['', 'api', 'v1', 'papers']);
    expect(decodeURIComponent(segments[4]!)).toBe(doi);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["year: '2021'", { year: '2021' }, 'year'],
    ['citations: 1.5', { citations: 1.5 }, 'citations'],
    ['abstract: null', { abstract: null }, 'abstract'],
    ['doi missing', { doi: undefined }, 'doi'],
  ])('refuses a paper with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/papers/*`, () => json({ ...paper, ...patch })));
    await expectRefusedResponse(testClient().papers.get('10.1000/abc'), [path]);
  });

  it.each<[string, unknown]>([
    ["''", ''],
    ["'abc'", 'abc'],
    ["'11.1000/x'", '11.1000/x'],
    ["'10.1000'", '10.1000'],
    ["'10.1000/'", '10.1000/'],
    ["' 10.1000/x'", ' 10.1000/x'],
    ["'10. 1000/x'", '10. 1000/x'],
    ["'10./x'", '10./x'],
    ["'10.1/\\uD800'", '10.1/\uD800'],
    ["'10.1\\uDC00/x'", '10.1\uDC00/x'],
    ['123', 123],
    ['10.1 (a number)', 10.1],
    ['null', null],
    ['undefined', undefined],
    ['an object', { doi: '10.1000/x' }],
  ])('refuses the DOI %s before sending', async (_label, doi) => {
    await expectRefused(() => testClient().papers.get(doi as string), 'doi');
  });
});

describe('routeTo keeps any DOI inside its path segment', () => {
  const registrant = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((r) => !r.includes('/') && !/\s/u.test(r) && !hasUnsafe(r));
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.constantFrom('/', '?', '#', '%', '&', '=', ' ', '..', '%2F', '%', '\\', '+', ';', '\u3000'),
  );
  // A DOI has no character a terminal may act on and does not end in white space (checkDoi refuses both).
  const suffix = fc
    .array(piece, { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join(''))
    .filter((s) => s.length > 0 && !/\s$/u.test(s) && !hasUnsafe(s));
  const doi = fc.tuple(registrant, suffix).map(([r, s]) => `10.${r}/${s}`);

  it('encodes / ? # away, decodes back to the DOI, and yields exactly four path segments', () => {
    // Plain checks rather than expect(): 10 000 runs must stay fast.
    fc.assert(
      fc.property(doi, (value) => {
        const encoded = routeTo(endpoints.papers.get, { doi: value }).path.slice('/papers/'.length);
        if (/[/?#]/.test(encoded) || decodeURIComponent(encoded) !== value) return false;
        const url = new URL(`${BASE}/papers/${encoded}`);
        const parts = url.pathname.split('/').slice(1);
        return (
          url.search === '' &&
          url.hash === '' &&
          parts.length === 4 &&
          parts[0] === 'api' &&
          parts[1] === 'v1' &&
          parts[2] === 'papers' &&
          decodeURIComponent(parts[3]!) === value
        );
      }),
      { numRuns: 10_000 },
    );
  });

  it('the DOIs of that property are ones papers.get accepts', () => {
    fc.assert(
      fc.property(doi, (value) => checkDoi(value) === value),
      { numRuns: 1_000 },
    );
  });
});
