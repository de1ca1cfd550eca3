/**
 * Fuzzing with fast-check, 10,000 runs per property:
 * - the webhook parser (imported from the `./webhooks` entry's source) throws `WebhookPayloadError`
 *   and nothing else, whatever it is given (this file);
 * - a DOI reaches a real server as exactly one path segment that decodes back to the DOI
 *   (fuzz-doi.test.ts);
 * - every parameter and request option of every method, given any value, is either sent as given or
 *   refused with `InvalidParameterError` before anything is sent (fuzz-params.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWebhookEvent, WebhookPayloadError } from '../../src/webhooks/index.js';
import { numRuns, safeStringify, useFuzz } from './fuzz-setup.js';

const { fuzz } = useFuzz('fuzz');

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
