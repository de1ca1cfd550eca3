// Events parseWebhookEvent refuses field by field: unknown kinds, wrong or missing fields, timestamps.
import { describe, expect, it } from 'vitest';
import { rejectionOf, validEvent, validJson } from './fixtures.js';

const withField = (patch: Record<string, unknown>) => JSON.stringify({ ...validEvent, ...patch });
const without = (key: keyof typeof validEvent) => {
  const { [key]: _dropped, ...rest } = validEvent;
  return JSON.stringify(rest);
};

describe('unknown event kinds', () => {
  it('names the kind', () => {
    const error = rejectionOf(withField({ event: 'journal_deleted' }));
    expect(error.message).toMatch(/^unknown webhook event "journal_deleted"/);
    expect(error.issues).toEqual([
      { path: ['event'], message: expect.stringContaining('"journal_deleted"') },
    ]);
  });

  it('names the kind even when the other fields do not fit', () => {
    expect(rejectionOf({ event: 'paper_added', doi: '10.1/x' }).message).toMatch(
      /unknown webhook event "paper_added"/,
    );
  });

  it('quotes the kind safely and truncates it', () => {
    const kind = `x"\n\u001b[31m\u202e${'y'.repeat(500)}`;
    const { message } = rejectionOf(withField({ event: kind }));
    expect(message).toContain('"x\\"\\n\\u001b[31m\\u202e');
    expect(message).toContain('(509 characters)');
    expect(message.length).toBeLessThan(200);
    for (const raw of ['\n', '\u001b', '\u202e']) expect(message).not.toContain(raw);
  });

  it.each(['SCORE_UPDATED', 'score_updated ', ' score_updated', 'score-updated', ''])(
    'refuses %j',
    (kind) => {
      expect(rejectionOf(withField({ event: kind })).message).toContain('unknown webhook event');
    },
  );

  it('reports a non-string event as a field error', () => {
    const error = rejectionOf(withField({ event: 1 }));
    expect(error.issues).toEqual([{ path: ['event'], message: 'expected "score_updated", got 1' }]);
  });
});

describe('fields', () => {
  it.each([
    ['journal_id', withField({ journal_id: '7' }), 'expected an integer, got string "7"'],
    ['journal_id', withField({ journal_id: 7.5 }), 'expected an integer, got 7.5'],
    ['journal_id', withField({ journal_id: null }), 'expected an integer, got null'],
    ['journal_id', withField({ journal_id: [7] }), 'expected an integer, got an array'],
    ['journal_id', withField({ journal_id: { id: 7 } }), 'expected an integer, got an object'],
    ['journal_id', without('journal_id'), 'missing (expected an integer)'],
    ['old_score', withField({ old_score: true }), 'expected an integer, got true'],
    ['old_score', without('old_score'), 'missing (expected an integer)'],
    ['new_score', withField({ new_score: 2 ** 53 }), 'expected a safe integer (at most 9007199254740991)'],
    [
      'new_score',
      validJson.replace('"new_score":64', '"new_score":1e400'),
      'expected an integer, got Infinity',
    ],
    [
      'new_score',
      validJson.replace('"new_score":64', '"new_score":-1e400'),
      'expected an integer, got -Infinity',
    ],
    [
      'new_score',
      validJson.replace('"new_score":64', '"new_score":12345678901234567890'),
      'expected a safe integer (at most',
    ],
    [
      'new_score',
      validJson.replace('"new_score":64', '"new_score":-9007199254740993'),
      'expected a safe integer (at least -9007199254740991)',
    ],
    ['new_score', without('new_score'), 'missing (expected an integer)'],
    ['quartile', withField({ quartile: 1 }), 'expected a string, got 1'],
    ['quartile', withField({ quartile: null }), 'expected a string, got null'],
    ['quartile', without('quartile'), 'missing (expected a string)'],
    ['timestamp', without('timestamp'), 'missing (expected a string)'],
    ['timestamp', withField({ timestamp: 1714564800 }), 'expected a string, got 1714564800'],
  ])('%s: %s', (field, body, message) => {
    const error = rejectionOf(body);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.path).toEqual([field]);
    expect(error.issues[0]?.message).toContain(message);
    expect(error.message).toContain(`${field}: ${message}`);
  });

  it('refuses NaN and infinities in an already-parsed object', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, -0.5]) {
      expect(rejectionOf({ ...validEvent, journal_id: value }).issues[0]?.path).toEqual(['journal_id']);
    }
  });

  it('lists every wrong field, in one message', () => {
    const error = rejectionOf({ journal_id: '7', quartile: 4 });
    expect(error.issues.map((issue) => issue.path[0])).toEqual([
      'event',
      'journal_id',
      'old_score',
      'new_score',
      'quartile',
      'timestamp',
    ]);
    expect(error.message).toMatch(
      /^invalid score_updated webhook event: event: missing \(expected "score_updated"\); journal_id: expected an integer, got string "7"; /,
    );
    expect(error.message).toContain('; and 1 more');
  });
});

describe('timestamp: exactly YYYY-MM-DDThh:mm:ssZ and a real date-time', () => {
  it.each([
    ['Feb 30', '2024-02-30T12:00:00Z'],
    ['Feb 29 of a common year', '2023-02-29T12:00:00Z'],
    ['Feb 29 of 1900', '1900-02-29T12:00:00Z'],
    ['April 31', '2024-04-31T12:00:00Z'],
    ['month 13', '2024-13-01T12:00:00Z'],
    ['month 00', '2024-00-01T12:00:00Z'],
    ['day 00', '2024-01-00T12:00:00Z'],
    ['hour 24', '2024-01-01T24:00:00Z'],
    ['minute 60', '2024-01-01T12:60:00Z'],
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['fractional seconds', '2024-05-01T12:00:00.000Z'],
    ['one fractional digit', '2024-05-01T12:00:00.5Z'],
    ['an offset', '2024-05-01T12:00:00+00:00'],
    ['a non-UTC offset', '2024-05-01T14:00:00+02:00'],
    ['no zone', '2024-05-01T12:00:00'],
    ['a lower-case z', '2024-05-01T12:00:00z'],
    ['a lower-case t', '2024-05-01t12:00:00Z'],
    ['a space for T', '2024-05-01 12:00:00Z'],
    ['no seconds', '2024-05-01T12:00Z'],
    ['a date only', '2024-05-01'],
    ['a 5-digit year', '+12024-05-01T12:00:00Z'],
    ['a trailing newline', '2024-05-01T12:00:00Z\n'],
    ['leading space', ' 2024-05-01T12:00:00Z'],
    ['basic format', '20240501T120000Z'],
    ['an HTTP date', 'Wed, 01 May 2024 12:00:00 GMT'],
    ['digits that are not ASCII', '２０２４-05-01T12:00:00Z'],
    ['an empty string', ''],
  ])('refuses %s', (_name, timestamp) => {
    const error = rejectionOf(withField({ timestamp }));
    expect(error.issues).toEqual([
      { path: ['timestamp'], message: expect.stringContaining('UTC date-time') },
    ]);
  });
});
