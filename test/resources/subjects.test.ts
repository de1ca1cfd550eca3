import fc from 'fast-check';
import { http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { requestOptionNames } from '../../src/core/options/request.js';
import { ConfigurationError, ResponseValidationError, type Subject } from '../../src/index.js';
import { expectRefusedResponse, recordingClient, refusals, rejection, target } from '../helpers/calls.js';
import { BASE, json, sequence, testClient, useMsw } from '../support.js';

const server = useMsw();
const { expectRefused } = refusals(server);
const requestOptions = Object.keys(requestOptionNames);

const subject = {
  id: 1,
  name: 'Materials Science',
  slug: 'materials-science',
  journals: 12,
  papers: 340,
  citations: 5600,
};

describe('subjects.list', () => {
  it('GETs /subjects with no query and returns the typed list, extra fields kept', async () => {
    const body = [subject, { ...subject, id: 2, slug: 'physics', parent: 1 }];
    const { handler, seen } = sequence('/subjects', [() => json(body)]);
    server.use(handler);
    const subjects = await testClient().subjects.list();
    expectTypeOf(subjects).toEqualTypeOf<Subject[]>();
    expect(seen).toHaveLength(1);
    expect(target(seen[0]!)).toBe('/api/v1/subjects');
    expect(subjects).toEqual(body);
  });

  it('accepts an empty list', async () => {
    server.use(http.get(`${BASE}/subjects`, () => json([])));
    expect(await testClient().subjects.list()).toEqual([]);
  });

  it('sends per-request headers', async () => {
    const { handler, seen } = sequence('/subjects', [() => json([])]);
    server.use(handler);
    await testClient().subjects.list({ headers: { 'x-trace': 't1' } });
    expect(seen[0]!.headers.get('x-trace')).toBe('t1');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['slug: null', { slug: null }, '0.slug'],
    ['journals: 1.5', { journals: 1.5 }, '0.journals'],
    ["papers: '340'", { papers: '340' }, '0.papers'],
    ['citations missing', { citations: undefined }, '0.citations'],
    ['name: 5', { name: 5 }, '0.name'],
    ['id: 2**53', { id: 2 ** 53 }, '0.id'],
  ])('refuses an element with %s', async (_label, patch, path) => {
    server.use(http.get(`${BASE}/subjects`, () => json([{ ...subject, ...patch }])));
    await expectRefusedResponse(testClient().subjects.list(), [path]);
  });

  it.each<[string, unknown]>([
    ['an object', { data: [subject], total: 1 }],
    ['null', null],
    ['a string', 'subjects'],
    ['an array of strings', ['physics']],
  ])('refuses a body that is %s', async (_label, body) => {
    server.use(http.get(`${BASE}/subjects`, () => json(body)));
    await expect(testClient().subjects.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'all', 'options'],
    ['null', null, 'options'],
    ['a number', 5, 'options'],
    ['timeout 0', { timeout: 0 }, 'timeout'],
    ['maxRetries -1', { maxRetries: -1 }, 'maxRetries'],
    ['signal: {}', { signal: {} }, 'signal'],
  ])(
    'refuses request options that are %s, as a rejection, before sending',
    async (_label, options, parameter) => {
      await expectRefused(() => testClient().subjects.list(options as never), parameter);
    },
  );
});

describe('subjects: arbitrary arguments go out or are refused (a bad value: ConfigurationError)', () => {
  it('list with any value as its options', async () => {
    const { calls, sdk } = recordingClient(server, () => []);
    await fc.assert(
      fc.asyncProperty(fc.anything({ maxDepth: 1, maxKeys: 3, size: 'xsmall' }), async (options) => {
        const before = calls.length;
        const error = await rejection(sdk.subjects.list(options as never));
        const isObject =
          options === undefined ||
          (typeof options === 'object' && options !== null && !Array.isArray(options));
        const unknown = isObject && Object.keys(options ?? {}).some((name) => !requestOptions.includes(name));
        if (error === undefined) {
          expect(isObject && !unknown).toBe(true);
          expect(calls.length).toBe(before + 1);
        } else {
          // The options of a call, not an API parameter: a name that is no request option (subjects.list
          // takes no parameters), or anything but an object.
          expect(error).toBeInstanceOf(ConfigurationError);
          expect(isObject && !unknown).toBe(false);
          expect(calls.length).toBe(before);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
