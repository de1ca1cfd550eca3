/**
 * Fuzzing with fast-check, 10,000 runs per property:
 * - the webhook parser (imported from the `./webhooks` entry's source) throws `WebhookPayloadError`
 *   and nothing else, whatever it is given;
 * - a DOI reaches a real server as exactly one path segment that decodes back to the DOI;
 * - every parameter and request option of every method, given any value, is either sent as given or
 *   refused with `InvalidParameterError` before anything is sent.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hasUnsafe } from '../../src/core/escape.js';
import { requestOptionNames } from '../../src/core/options/request.js';
import { pageOptionNames } from '../../src/core/resource.js';
import {
  ConfigurationError,
  InvalidParameterError,
  type MetricClient,
  TimeoutError,
} from '../../src/index.js';
import { parseWebhookEvent, WebhookPayloadError } from '../../src/webhooks/index.js';
import { recordingClient, recordingHandler } from '../helpers/calls.js';
import { inProcessFetch, TEST_KEY, testClient, useMsw } from '../support.js';
import { json } from './fault-server.js';
import { reportFigures, useFaultServers } from './harness.js';

// 10,000 runs of a whole client call take a few seconds; on a busy CI machine, several times that.
vi.setConfig({ testTimeout: 90_000 });
const numRuns = 10_000;
const figures: Array<Record<string, unknown>> = [];
reportFigures('fuzz', () => figures);

/** Runs a property like `fc.assert`, and records how many runs it made and how long they took. */
async function fuzz(
  target: string,
  property: fc.IAsyncProperty<never> | fc.IProperty<never>,
  runs = numRuns,
) {
  const started = performance.now();
  const details = await fc.check(property as fc.IAsyncProperty<never>, { numRuns: runs });
  if (details.failed) {
    throw new Error(fc.defaultReportMessage(details) ?? `${target}: property failed`, {
      cause: details.errorInstance,
    });
  }
  figures.push({ target, runs: details.numRuns, 'time (ms)': Math.round(performance.now() - started) });
  expect(details.numRuns).toBe(runs);
}

// ---------------------------------------------------------------------------------------------

describe('webhook parser: WebhookPayloadError and nothing else', () => {
  const valid = {
    event: 'score_updated',
    journal_id: 42,
    old_score: 71,
    new_score: 74,
    quartile: 'Q1',
    timestamp: '2026-03-01T12:00:00Z',
  };

  /** Objects that fight back: throwing getters and proxies, cycles, toJSON, deep nesting. */
  const hostile = fc.constantFrom<() => unknown>(
    () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap');
          },
          ownKeys() {
            throw new Error('trap');
          },
          getOwnPropertyDescriptor() {
            throw new Error('trap');
          },
          getPrototypeOf() {
            throw new Error('trap');
          },
          has() {
            throw new Error('trap');
          },
        },
      ),
    () =>
      Object.defineProperty({ ...valid }, 'journal_id', {
        enumerable: true,
        get() {
          throw new RangeError('getter');
        },
      }),
    () => {
      const cycle: Record<string, unknown> = { ...valid };
      cycle.self = cycle;
      return cycle;
    },
    () => ({
      ...valid,
      toJSON() {
        throw new Error('toJSON');
      },
    }),
    () => Object.assign(Object.create(null), valid, { journal_id: '42' }),
    () => `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    () => ({ ...valid, extra: JSON.parse(`${'['.repeat(5_000)}${']'.repeat(5_000)}`) }),
    () => new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0xfe]),
    () => new DataView(new TextEncoder().encode(JSON.stringify(valid)).buffer, 3),
    () => new SharedArrayBuffer(8),
    () => Symbol('body'),
    () => 10n,
    () => () => valid,
    () => new Date(),
    () => new Map(Object.entries(valid)),
    () => Promise.resolve(valid),
  );

  const field = (good: fc.Arbitrary<unknown>) => fc.oneof({ weight: 3, arbitrary: good }, fc.anything());
  /** Events with each field valid or not, as an object, as JSON text, or as UTF-8 bytes. */
  const nearlyValid = fc
    .record(
      {
        event: field(fc.constant('score_updated')),
        journal_id: field(fc.integer()),
        old_score: field(fc.integer()),
        new_score: field(fc.integer()),
        quartile: field(fc.constantFrom('Q1', 'Q2', 'Q3', 'Q4')),
        timestamp: field(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().replace(/\.\d{3}/, ''))),
      },
      { requiredKeys: [] },
    )
    .chain((event) =>
      fc.constantFrom<unknown>(
        event,
        safeStringify(event),
        new TextEncoder().encode(safeStringify(event)),
        new TextEncoder().encode(safeStringify(event)).buffer,
      ),
    );

  const input = fc.oneof(
    fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
      withSparseArray: true,
      withBoxedValues: true,
    }),
    fc.string({ unit: 'binary' }),
    fc.json().map((text) => (text.length % 2 ? text : `\uFEFF${text}`)),
    fc.uint8Array(),
    nearlyValid,
    // Built inside the property: fast-check itself must not touch a hostile value.
    hostile.map((make) => ({ hostile: make })),
  );

  it(`only WebhookPayloadError, or a valid event (${numRuns} runs)`, async () => {
    await fuzz(
      'webhook parser',
      fc.property(input, (drawn) => {
        const body =
          typeof drawn === 'object' && drawn !== null && Object.hasOwn(drawn, 'hostile')
            ? (drawn as { hostile: () => unknown }).hostile()
            : drawn;
        let event: Record<string, unknown>;
        try {
          event = parseWebhookEvent(body as never) as unknown as Record<string, unknown>;
        } catch (error) {
          if (!(error instanceof WebhookPayloadError)) throw error;
          expect(error.name).toBe('WebhookPayloadError');
          expect(typeof error.message).toBe('string');
          return;
        }
        expect(event.event).toBe('score_updated');
        for (const name of ['journal_id', 'old_score', 'new_score'] as const) {
          expect(Number.isSafeInteger(event[name])).toBe(true);
        }
        expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }) as never,
    );
  });
});

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '{';
  }
}

// ---------------------------------------------------------------------------------------------

describe('DOI: one path segment on a real server, decoding back to the DOI', () => {
  const servers = useFaultServers();

  /** Characters that would leave a path segment if they were not encoded, and their look-alikes. */
  const tricky = fc.constantFrom(
    '/',
    '?',
    '#',
    '%',
    '%2F',
    '%2f',
    '%3F',
    '%23',
    '%25',
    '%00',
    '%2e%2e',
    '..',
    '.',
    '\\',
    '&',
    '=',
    '+',
    ';',
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\u0000',
    '\u007f',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '😀',
    'é',
    '\u0301',
    '<',
    '>',
    '"',
    "'",
    '`',
    '{',
    '}',
    '|',
    '^',
    '[',
    ']',
    '@',
    ':',
    '$',
    ',',
    '!',
    '*',
    '(',
    ')',
    '~',
  );
  const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), tricky);
  const text = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
  /** Registrants as the DOI form allows them: no `/`, no white space, no character a terminal acts on. */
  const registrant = text
    .map((s) => s.replace(/[/\s\p{Cc}]/gu, ''))
    .filter((s) => s.length > 0 && !hasUnsafe(s))
    .map((s) => s.replace(/[\uD800-\uDFFF]/gu, 'x'));
  /** Suffixes as the DOI form allows them: no character a terminal acts on, no white space at the end. */
  const suffix = text
    .map((s) => s.replace(/\p{Cc}/gu, '').trimEnd())
    .filter((s) => s.length > 0 && !hasUnsafe(s))
    .map((s) => s.replace(/[\uD800-\uDFFF]/gu, 'x'));
  const wellFormedDoi = fc.tuple(registrant, suffix).map(([r, s]) => `10.${r}/${s}`);
  const anyDoi = fc.oneof(
    { weight: 4, arbitrary: wellFormedDoi },
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'binary' }).map((s) => `10.${s}`),
    fc.tuple(text, fc.string({ unit: 'binary' })).map(([r, s]) => `10.${r}/${s}`),
    fc.anything(),
  );

  /** A DOI drawn either from anything, or from the DOI form (which must never be refused). */
  const drawnDoi = fc.oneof(
    anyDoi.map((doi) => ({ doi, wellFormed: false })),
    wellFormedDoi.map((doi) => ({ doi, wellFormed: true })),
  );

  /** What the SDK did with one DOI: `url` is the path and query it sent, below the base's origin. */
  type Outcome = { refused: true } | { refused: false; url: string; paperDoi: string };

  function expectOneSegment(drawn: { doi: unknown; wellFormed: boolean }, outcome: Outcome) {
    if (outcome.refused) {
      expect(drawn.wellFormed).toBe(false);
      return;
    }
    const parts = outcome.url.split('/');
    expect(parts.slice(0, 4)).toEqual(['', 'api', 'v1', 'papers']);
    expect(parts).toHaveLength(5);
    expect(outcome.url).not.toMatch(/[?#]/);
    expect(decodeURIComponent(parts[4]!)).toBe(drawn.doi);
    expect(outcome.paperDoi).toBe(drawn.doi);
  }

  async function send(client: MetricClient, doi: unknown, options?: { headers: Record<string, string> }) {
    try {
      return await client.papers.get(doi as string, options);
    } catch (error) {
      if (error instanceof InvalidParameterError) return undefined;
      throw error;
    }
  }

  const paperAnswer = (doi: string) => ({
    id: 1,
    title: 'T',
    authors: 'A',
    doi,
    year: 2020,
    citations: 0,
    abstract: '',
  });

  describe('answered by msw', () => {
    // Its own block: the file's msw server would otherwise intercept the real server's requests.
    const server = useMsw();

    it(`as handed to fetch: one segment decoding back to the DOI, or refused unsent (${numRuns} runs)`, async () => {
      const { calls, sdk } = recordingClient(server, ({ pathname }) =>
        paperAnswer(decodeURIComponent(pathname.split('/').pop() ?? '')),
      );
      const counts = { sent: 0, refused: 0 };
      await fuzz(
        'DOI path segment (URL handed to fetch)',
        fc.asyncProperty(drawnDoi, async (drawn) => {
          calls.length = 0;
          const paper = await send(sdk, drawn.doi);
          const handed = calls.map((url) => url.pathname + url.search + url.hash);
          if (paper === undefined) {
            expect(handed).toEqual([]);
            counts.refused++;
            expectOneSegment(drawn, { refused: true });
            return;
          }
          counts.sent++;
          expect(handed).toHaveLength(1);
          expectOneSegment(drawn, { refused: false, url: handed[0]!, paperDoi: paper.doi });
        }) as never,
      );
      expect(counts.sent).toBeGreaterThan(numRuns / 2);
      expect(counts.refused).toBeGreaterThan(numRuns / 20);
    });
  });

  const realServerDois = 1_000;
  it(`on a real server: ${realServerDois} DOIs, 20 at a time, each one segment decoding back to the DOI`, async () => {
    /** The path each tagged request arrived with, as the server read it from the request line. */
    const arrived = new Map<string, string[]>();
    const scenario = servers.scenario((req, res, attempt) => {
      const tag = String(req.headers['x-fuzz']);
      const url = scenario.requests.at(-1)!.url;
      arrived.set(tag, [...(arrived.get(tag) ?? []), url]);
      const segment = url.split('/').pop() ?? '';
      json(paperAnswer(decodeURIComponent(segment)))(req, res, attempt);
    });
    const client = testClient({ maxRetries: 0 }, scenario);
    const batch = 20;
    let dois = 0;
    let tag = 0;
    await fuzz(
      `DOI path segment (real server, ${batch} per run)`,
      fc.asyncProperty(fc.array(drawnDoi, { minLength: batch, maxLength: batch }), async (drawns) => {
        await Promise.all(
          drawns.map(async (drawn) => {
            dois++;
            const id = String(++tag);
            const paper = await send(client, drawn.doi, { headers: { 'x-fuzz': id } });
            const seen = arrived.get(id) ?? [];
            if (paper === undefined) {
              expect(seen).toEqual([]);
              expectOneSegment(drawn, { refused: true });
              return;
            }
            expect(seen).toHaveLength(1);
            expectOneSegment(drawn, { refused: false, url: seen[0]!, paperDoi: paper.doi });
          }),
        );
      }) as never,
      realServerDois / batch,
    );
    figures.push({ target: 'DOIs sent to the real server', runs: dois, 'time (ms)': '' });
    expect(dois).toBeGreaterThanOrEqual(realServerDois);
    expect(servers.main.strays).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

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
