/**
 * queries.follow keeps a relayed message by the webhook parser's checks without its words
 * (src/webhooks/event-checks.ts): these tests hold it to parseWebhookEvent's verdict and output on the
 * texts an event stream can carry, so that both ends take the same events.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { relayedEvent } from '../../src/query/follow.js';
import { parseWebhookEvent } from '../../src/webhooks/parse.js';
import {
  bodyTextArb,
  invalidBodies,
  timestampArb,
  validEvent,
  validEventArb,
  validJson,
} from '../webhooks/fixtures.js';

type Verdict = { ok: true; value: unknown } | { ok: false };

const verdictOf = (read: () => unknown): Verdict => {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
};

/** Throws when the two disagree; returns the verdict, for the tallies. */
function agree(text: string): boolean {
  const byParser = verdictOf(() => parseWebhookEvent(text));
  const byFollow = verdictOf(() => relayedEvent(text));
  const same =
    byParser.ok === byFollow.ok &&
    (!byParser.ok ||
      (byFollow.ok &&
        isDeepStrictEqual(byParser.value, byFollow.value) &&
        Object.getPrototypeOf(byFollow.value) === Object.prototype &&
        isDeepStrictEqual(Object.keys(byParser.value as object), Object.keys(byFollow.value as object))));
  if (!same) throw new Error(`the parser and follow disagree on ${JSON.stringify(text)}`);
  return byParser.ok;
}

/** A valid event with one field swapped for another value, or one key added or removed. */
const editedEventArb = fc
  .record({
    event: validEventArb,
    key: fc.constantFrom(
      ...Object.keys(validEvent),
      'extra',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
    ),
    value: fc.oneof(
      fc.constant(undefined),
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -1, 2 ** 53, -(2 ** 53), 1.5, '7', 'score_updated', 'journal_deleted', null, true),
      timestampArb,
      fc.constantFrom('2024-02-30T12:00:00Z', '2023-02-29T00:00:00Z', '2024-01-01T24:00:00Z'),
      fc.string(),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(fc.constantFrom('a', 'valueOf', '__proto__'), fc.integer(), { maxKeys: 2 }),
    ),
    bom: fc.boolean(),
  })
  .map(({ event, key, value, bom }) => {
    // `__proto__` written as a JSON key, as a sender would; JSON.stringify of an object cannot.
    const body = JSON.stringify({ ...event, [key === '__proto__' ? '@proto@' : key]: value }).replace(
      '"@proto@"',
      '"__proto__"',
    );
    return `${bom ? '\ufeff' : ''}${body}`;
  });

describe('queries.follow and the webhook parser take the same events', () => {
  it('agree on valid events and on events with one edit', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(editedEventArb, (text) => {
        if (agree(text)) accepted++;
        else refused++;
      }),
      { numRuns: 5_000 },
    );
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('agree on arbitrary text and JSON', () => {
    fc.assert(
      fc.property(bodyTextArb, (body) => {
        agree(body);
      }),
      { numRuns: 5_000 },
    );
  });

  it('agree on the documented refusals, blank text and deep nesting', () => {
    const texts = [
      ...invalidBodies.flatMap(([, body]) => (typeof body === 'string' ? [body] : [])),
      ' \n',
      '\ufeff',
      'null',
      '[]',
      '"score_updated"',
      JSON.stringify({ ...validEvent, nested: JSON.parse(`${'['.repeat(70)}${']'.repeat(70)}`) }),
    ];
    for (const text of texts) expect(agree(text), text).toBe(false);
    expect(agree(validJson)).toBe(true);
    expect(agree(`\ufeff${validJson}`)).toBe(true);
  });
});
