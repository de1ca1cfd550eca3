import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Country, InvalidParameterError, ResponseValidationError } from '../../src/index.js';
import {
  anyValue as any,
  expectRefusedResponse,
  recordingClient,
  refusals,
  rejection,
  target,
} from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';

const server = useMsw();
const { expectRefused } = refusals(server);

const country = { id: 64, name: 'New Zealand', flag: '🇳🇿', journals: 12, papers: 340, citations: 5600 };

describe('countries.list', () => {
  it('GETs /countries and returns the typed list, extra fields kept', async () => {
    const body = [country, { ...country, id: 36, name: 'Australia', flag: '🇦🇺', iso: 'AU' }];
    const { handler, seen } = sequence('/countries', [() => json(body)]);
    server.use(handler);
    const countries = await testClient().countries.list();
    expectTypeOf(countries).toEqualTypeOf<Country[]>();
    expect(seen).toHaveLength(1);
    expect(target(seen[0]!)).toBe('/api/v1/countries');
    expect(countries).toEqual(body);
  });

  it('sends show=active and show=all; undefined parameters are not sent, unknown ones refused', async () => {
    const { handler, seen } = sequence('/countries', [() => json([])]);
    server.use(handler);
    await testClient().countries.list({ show: 'active' });
    await testClient().countries.list({ show: 'all' });
    await testClient().countries.list({});
    await testClient().countries.list({ show: undefined });
    expect(seen.map(target)).toEqual([
      '/api/v1/countries?show=active',
      '/api/v1/countries?show=all',
      '/api/v1/countries',
      '/api/v1/countries',
    ]);
    await expectRefused(() => testClient().countries.list({ q: 'nz' } as never), 'q');
  });

  it('takes request options as its second argument', async () => {
    const { handler, seen } = sequence('/countries', [() => json([])]);
    server.use(handler);
    await testClient().countries.list({ show: 'all' }, { headers: { 'x-trace': 't2' } });
    expect(seen[0]!.headers.get('x-trace')).toBe('t2');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['flag: 1', { flag: 1 }, '0.flag'],
    ['journals: -0.5', { journals: -0.5 }, '0.journals'],
    ["citations: '5600'", { citations: '5600' }, '0.citations'],
    ['papers: null', { papers: null }, '0.papers'],
    ['name missing', { name: undefined }, '0.name'],
  ])('refuses an element with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/countries`, () => json([{ ...country, ...patch }])));
    await expectRefusedResponse(testClient().countries.list(), [path]);
  });

  it('refuses a body that is not an array', async () => {
    server.use(http.get(`${BASE}/countries`, () => json({ data: [country], total: 1 })));
    await expect(testClient().countries.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it.each<[string, unknown, string, RegExp]>([
    ["show: 'none'", { show: 'none' }, 'show', /show/],
    ["show: 'ALL'", { show: 'ALL' }, 'show', /show/],
    ["show: ''", { show: '' }, 'show', /show/],
    ['show: true', { show: true }, 'show', /show/],
    ['show: null', { show: null }, 'show', /show/],
    ["show: ['all']", { show: ['all'] }, 'show', /show/],
    ["params 'all'", 'all', 'params', /parameters/],
    ['params null', null, 'params', /parameters/],
    ['params [] (an array)', [], 'params', /parameters/],
  ])('refuses %s before sending, as a rejection', async (_label, params, parameter, named) => {
    await expectRefused(() => testClient().countries.list(params as never), parameter, named);
  });

  it('names the allowed values when refusing show', async () => {
    const error = await rejection(testClient().countries.list({ show: 'none' as 'all' }));
    expect((error as Error).message).toContain('"active"');
    expect((error as Error).message).toContain('"all"');
  });
});

describe('countries: arbitrary arguments either go out or are refused as InvalidParameterError', () => {
  it('list with any params', async () => {
    const { calls, sdk } = recordingClient(server, () => []);
    const params = fc.oneof(
      any,
      fc.record(
        { show: fc.oneof(any, fc.constantFrom('active', 'all', 'none')), other: any },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        const before = calls.length;
        const error = await rejection(sdk.countries.list(p as never));
        const show = (p as { show?: unknown } | undefined)?.show;
        const valid =
          p === undefined ||
          (typeof p === 'object' &&
            p !== null &&
            !Array.isArray(p) &&
            Object.keys(p).every((name) => name === 'show') &&
            (show === undefined || show === 'active' || show === 'all'));
        if (error === undefined) {
          expect(valid).toBe(true);
          expect(calls.length).toBe(before + 1);
          expect(calls.at(-1)!.search).toBe(show === undefined ? '' : `?show=${show}`);
        } else {
          expect(error).toBeInstanceOf(InvalidParameterError);
          expect(valid).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
