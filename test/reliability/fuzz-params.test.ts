/** Fuzzing every parameter and request option of every method: sent as given, or refused unsent. */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { requestOptionNames } from '../../src/core/options/request.js';
import { pageOptionNames } from '../../src/core/resource.js';
import {
  ConfigurationError,
  InvalidParameterError,
  type MetricClient,
  TimeoutError,
} from '../../src/index.js';
import { recordingHandler } from '../helpers/calls.js';
import { inProcessFetch, TEST_KEY, testClient, useMsw } from '../support.js';
import { numRuns, safeStringify, useFuzz } from './fuzz-setup.js';

const { fuzz } = useFuzz('fuzz-params');

describe('every parameter and option: sent as given, or refused before sending (InvalidParameterError, ConfigurationError)', () => {
  /** Canned valid answers by path, so that fuzzing runs at the speed of the client. */
  function cannedBody(path: string): unknown {
    const profile = { id: 1, name: 'J', metric_score: 1, quartile: 'Q1', description: '', oa: true };
    if (/\/journals\/[^/]+\/papers$/.test(path) || /\/(papers|authors)$/.test(path))
      return { data: [], total: 0 };
    if (/\/journals\/[^/]+\/score$/.test(path)) return { current: 1, quartile: 'Q1', history: [] };
    if (/\/journals\/[^/]+$/.test(path)) return profile;
    if (/\/papers\/[^/]+$/.test(path))
      return { id: 1, title: 'T', authors: 'A', doi: '10.1/x', year: 2020, citations: 0, abstract: '' };
    if (/\/authors\/[^/]+$/.test(path))
      return { id: 1, name: 'A', orcid: '', affil: '', h_index: 0, papers: [] };
    return [];
  }

  const server = useMsw();
  // One client and one record for the whole block: the last test reads what the others sent.
  const { calls: sentUrls, handler } = recordingHandler((url) => cannedBody(url.pathname));
  beforeEach(() => server.use(handler));
  const client = testClient({ maxRetries: 0, fetch: inProcessFetch(server) });

  type Method = (client: MetricClient, value: unknown) => PromiseLike<unknown>;
  /** Where a fuzzed value goes, and how it must look on the wire when it was sent. */
  interface Slot {
    readonly name: string;
    readonly call: Method;
    readonly wire?: (url: URL, value: unknown) => void;
    /** Whether the value names an option the method does not take (refused with InvalidParameterError). */
    readonly unknown?: (value: unknown) => boolean;
  }

  const id = (name: string, call: Method, at: number): Slot => ({
    name,
    call,
    wire: (url, value) => expect(url.pathname.split('/')[at]).toBe(String(value)),
  });
  /** The query value sent for `field`; `page` absent (or null) is the first page. */
  const query =
    (field: string, fallback?: string) =>
    (url: URL, value: unknown): void => {
      const absent = value === undefined || (fallback !== undefined && value === null);
      expect(url.searchParams.get(field)).toBe(absent ? (fallback ?? null) : String(value));
    };
  const anyClient = client as unknown as {
    journals: Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
    papers: Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
    authors: Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
    countries: Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
    subjects: Record<string, (...args: unknown[]) => PromiseLike<unknown>>;
  };
  const c = anyClient;

  const parameterSlots: Slot[] = [
    id('journals.get(id)', (_, v) => c.journals.get!(v), 4),
    id('journals.score(id)', (_, v) => c.journals.score!(v), 4),
    id('journals.papers(id)', (_, v) => c.journals.papers!(v), 4),
    id('authors.get(id)', (_, v) => c.authors.get!(v), 4),
    { name: 'papers.get(doi)', call: (_, v) => c.papers.get!(v) },
    { name: 'journals.papers(1, params)', call: (_, v) => c.journals.papers!(1, v) },
    {
      name: 'journals.papers(1, { page })',
      call: (_, v) => c.journals.papers!(1, { page: v }),
      wire: query('page', '1'),
    },
    {
      name: 'journals.papers(1, { per_page })',
      call: (_, v) => c.journals.papers!(1, { per_page: v }),
      wire: query('per_page'),
    },
    { name: 'papers.search(params)', call: (_, v) => c.papers.search!(v) },
    ...(['q', 'year', 'oa', 'sort', 'per_page'] as const).map(
      (field): Slot => ({
        name: `papers.search({ ${field} })`,
        call: (_, v) => c.papers.search!({ [field]: v }),
        wire: query(field),
      }),
    ),
    {
      name: 'papers.search({ page })',
      call: (_, v) => c.papers.search!({ page: v }),
      wire: query('page', '1'),
    },
    { name: 'authors.list(params)', call: (_, v) => c.authors.list!(v) },
    ...(['q', 'country_id', 'field_id', 'sort'] as const).map(
      (field): Slot => ({
        name: `authors.list({ ${field} })`,
        call: (_, v) => c.authors.list!({ [field]: v }),
        wire: query(field),
      }),
    ),
    {
      name: 'authors.list({ page })',
      call: (_, v) => c.authors.list!({ page: v }),
      wire: query('page', '1'),
    },
    { name: 'countries.list(params)', call: (_, v) => c.countries.list!(v) },
    { name: 'countries.list({ show })', call: (_, v) => c.countries.list!({ show: v }), wire: query('show') },
  ];

  /** Every method, with the request options as its last argument. */
  const withOptions: Array<[string, (options: unknown) => PromiseLike<unknown>]> = [
    ['journals.list', (o) => c.journals.list!(o)],
    ['journals.get', (o) => c.journals.get!(1, o)],
    ['journals.papers', (o) => c.journals.papers!(1, {}, o)],
    ['journals.score', (o) => c.journals.score!(1, o)],
    ['papers.search', (o) => c.papers.search!({}, o)],
    ['papers.get', (o) => c.papers.get!('10.1/x', o)],
    ['authors.list', (o) => c.authors.list!({}, o)],
    ['authors.get', (o) => c.authors.get!(1, o)],
    ['subjects.list', (o) => c.subjects.list!(o)],
    ['countries.list', (o) => c.countries.list!({}, o)],
  ];
  const paginated = ['journals.papers', 'papers.search', 'authors.list'];
  const optionSlots = (fields: readonly string[]): Slot[] =>
    withOptions.flatMap(([method, call]) => {
      const takes = Object.keys(paginated.includes(method) ? pageOptionNames : requestOptionNames);
      const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
      return [
        {
          name: `${method}(…, options)`,
          call: (_, v) => call(v),
          unknown: (v) => isObject(v) && Object.keys(v as object).some((name) => !takes.includes(name)),
        },
        ...fields.map(
          (field): Slot => ({
            name: `${method}(…, { ${field} })`,
            call: (_, v) => call({ [field]: v }),
            unknown: () => !takes.includes(field),
          }),
        ),
      ];
    });

  /** Values that are sometimes valid, so that both outcomes are exercised often. */
  const value = fc.oneof(
    fc.anything({ withBigInt: true, withBoxedValues: true, withNullPrototype: true, withSparseArray: true }),
    fc.integer({ min: -3, max: 1_000 }),
    fc.double(),
    fc.constantFrom(
      undefined,
      null,
      true,
      false,
      'active',
      'all',
      '',
      Number.MAX_SAFE_INTEGER,
      2 ** 53,
      1.5,
      '1',
      [1],
      {},
    ),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );

  /** `refusal`: the class a surely invalid value is refused with (a parameter's, or an option's). */
  async function check(
    slots: Slot[],
    label: string,
    refusal: typeof InvalidParameterError | typeof ConfigurationError = InvalidParameterError,
    runs = numRuns,
  ) {
    const counts = { sent: 0, refused: 0 };
    await fuzz(
      label,
      fc.asyncProperty(fc.constantFrom(...slots), value, async (slot, v) => {
        const before = sentUrls.length;
        try {
          await slot.call(client, v);
        } catch (error) {
          // A timeout of a few microseconds is a valid option; it may really time out.
          const timeout = slot.name.includes('{ timeout }')
            ? v
            : (v as { timeout?: unknown } | null)?.timeout;
          if (error instanceof TimeoutError && typeof timeout === 'number' && timeout < 100) return;
          const unknownName = slot.unknown?.(v) === true && error instanceof InvalidParameterError;
          if (!(error instanceof refusal) && !unknownName) {
            throw new Error(`${slot.name} with ${String(safeStringify(v))}: ${String(error)}`, {
              cause: error,
            });
          }
          expect(sentUrls.length).toBe(before);
          counts.refused++;
          return;
        }
        counts.sent++;
        expect(slot.unknown?.(v) ?? false).toBe(false);
        expect(sentUrls.length).toBe(before + 1);
        slot.wire?.(sentUrls.at(-1)!, v);
      }) as never,
      runs,
    );
    expect(counts.sent).toBeGreaterThan(0);
    expect(counts.refused).toBeGreaterThan(0);
  }

  it(`every parameter of every method (${numRuns} runs)`, async () => {
    await check(parameterSlots, 'method parameters');
  });

  it(`every request option of every method: the options, timeout, maxRetries, signal, headers, prefetch (${numRuns} runs)`, async () => {
    await check(
      optionSlots(['timeout', 'maxRetries', 'signal', 'headers', 'prefetch']),
      'request options',
      ConfigurationError,
    );
  });

  it('the key is sent only in the Authorization header', () => {
    // The fuzzed requests above never put the key in a URL.
    for (const url of sentUrls) expect(url.href).not.toContain(TEST_KEY);
  });
});
