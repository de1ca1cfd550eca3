import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeValue, quote } from '../../src/core/describe-value.js';
import { formatPath, summarizeIssues } from '../../src/core/issues.js';
import { toValidationIssues } from '../../src/core/zod-issues.js';

describe('quote', () => {
  it('quotes like JSON', () => {
    expect(quote('journal_deleted')).toBe('"journal_deleted"');
    expect(quote('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
  });

  it('escapes what JSON leaves but a terminal or log viewer acts on', () => {
    expect(quote('\u007f\u0085\u2028\u2029\u202e\u2066\u200f\ufeff')).toBe(
      '"\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066\\u200f\\ufeff"',
    );
  });

  it('cuts long text at 40 units and says how long it was', () => {
    expect(quote('a'.repeat(41))).toBe(`"${'a'.repeat(40)}…" (41 characters)`);
    expect(quote('a'.repeat(40))).toBe(`"${'a'.repeat(40)}"`);
  });

  it('does not cut a surrogate pair in half', () => {
    const text = `${'a'.repeat(39)}😀tail`;
    expect(quote(text)).toBe(`"${'a'.repeat(39)}…" (45 characters)`);
  });

  it('escapes a lone surrogate instead of passing it on', () => {
    expect(quote('\ud800')).toBe('"\\ud800"');
  });
});

describe('describeValue', () => {
  it.each([
    ['7', 'string "7"'],
    [1.5, '1.5'],
    [-0, '-0'],
    [Number.NaN, 'NaN'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
    [10n ** 70n, 'bigint'],
    [true, 'true'],
    [undefined, 'nothing'],
    [null, 'null'],
    [[], 'an array'],
    [{}, 'an object'],
    [new Date(0), 'an object'],
    [Symbol('s'), 'a symbol'],
    [() => 1, 'a function'],
  ])('%s → %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });

  it('survives a revoked proxy', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(describeValue(proxy)).toBe('an object');
  });

  it('never calls into the value', () => {
    const trap = () => {
      throw new Error('touched');
    };
    const hostile = new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap });
    expect(describeValue(hostile)).toBe('an object');
  });
});

describe('formatPath', () => {
  it.each([
    [[], '(root)'],
    [['journal_id'], 'journal_id'],
    [['data', 3, 'year'], 'data[3].year'],
    [[0], '[0]'],
    [['odd key', 'x'], '["odd key"].x'],
    [[Symbol('s')], '["Symbol(s)"]'],
  ])('%j → %s', (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});

/** The formatter is meant for any schema, so codes the client's schemas never produce are covered too. */
describe('toValidationIssues', () => {
  const issuesOf = (schema: z.ZodMiniType, value: unknown) => {
    const result = z.safeParse(schema, value, { reportInput: true });
    if (result.success) throw new Error('expected a failure');
    return toValidationIssues(result.error.issues, { describeValue, quote }).map((issue) => issue.message);
  };

  const table: [z.ZodMiniType, unknown, string][] = [
    [z.boolean(), 'yes', 'expected a boolean, got string "yes"'],
    [z.boolean(), 1.5, 'expected a boolean, got 1.5'],
    [z.array(z.string()), {}, 'expected an array, got an object'],
    [z.object({}), [], 'expected an object, got an array'],
    [z.number(), '1', 'expected a number, got string "1"'],
    [z.int(), '87', 'expected a number, got string "87"'],
    [z.int(), 1.5, 'expected an integer, got 1.5'],
    [z.int(), 2 ** 53, 'expected a safe integer (at most 9007199254740991), got 9007199254740992'],
    [z.literal(['a', 'b']), 'c', 'expected one of "a", "b", got string "c"'],
    [z.literal(3), 4, 'expected 3, got 4'],
    [z.iso.date(), '2024-02-30', 'expected a calendar date "YYYY-MM-DD", got string "2024-02-30"'],
    [
      z.iso.datetime(),
      '2024-02-30T00:00:00Z',
      'expected an ISO 8601 date-time, got string "2024-02-30T00:00:00Z"',
    ],
    [z.email(), 'x', 'expected the email format, got string "x"'],
    [z.string().check(z.maxLength(2)), 'abc', 'expected a string of at most 2 characters, got string "abc"'],
    [z.string().check(z.minLength(2)), 'a', 'expected a string of at least 2 characters, got string "a"'],
    [z.array(z.int()).check(z.maxLength(1)), [1, 2], 'expected at most 1 item, got an array'],
    [z.array(z.int()).check(z.minLength(2)), [1], 'expected at least 2 items, got an array'],
    [z.int().check(z.nonnegative()), -1, 'expected a value at least 0, got -1'],
    [z.number().check(z.gt(0)), 0, 'expected a value more than 0, got 0'],
    [z.number().check(z.lt(0)), 0, 'expected a value less than 0, got 0'],
    [z.number().check(z.multipleOf(3)), 4, 'expected a multiple of 3, got 4'],
    [z.strictObject({}), { a: 1, b: 2 }, 'unexpected keys "a", "b"'],
    [z.strictObject({}), { a: 1 }, 'unexpected key "a"'],
    [z.union([z.string(), z.number()]), null, 'invalid value, got null'],
    [z.string().check(z.refine((s) => s === 'x', 'must be x')), 'y', 'must be x, got string "y"'],
    [z.object({ n: z.int() }), {}, 'missing (expected a number)'],
  ];
  for (const [schema, value, expected] of table) {
    it(expected, () => {
      expect(issuesOf(schema, value)).toEqual([expected]);
    });
  }

  it('says only what was expected when the input was not reported', () => {
    const result = z.safeParse(z.object({ n: z.int() }), { n: 'x' });
    expect(result.success).toBe(false);
    expect(toValidationIssues(result.error?.issues ?? [], { describeValue, quote })).toEqual([
      { path: ['n'], message: 'expected a number' },
    ]);
  });

  it('quotes and cuts an untrusted string received', () => {
    const [message] = issuesOf(z.number(), `\u202e${'x'.repeat(100)}`);
    expect(message).toBe(`expected a number, got string "\\u202e${'x'.repeat(39)}…" (101 characters)`);
  });
});

describe('summarizeIssues', () => {
  it('joins issues with their paths and shows at most five', () => {
    const issues = Array.from({ length: 7 }, (_, index) => ({ path: ['data', index], message: 'bad' }));
    expect(summarizeIssues(issues)).toBe(
      'data[0]: bad; data[1]: bad; data[2]: bad; data[3]: bad; data[4]: bad; and 2 more',
    );
    expect(summarizeIssues(issues.slice(0, 5))).not.toContain('more');
    expect(summarizeIssues(issues.slice(0, 1))).toBe('data[0]: bad');
    expect(summarizeIssues([{ path: [], message: 'not JSON' }])).toBe('(root): not JSON');
  });
});
