import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { describeValue, quote } from '../../src/core/describe-value.js';
import { type CheckedSchema, checkWithZod, explainedItems } from '../../src/core/zod-check.js';
import { subjectListSchema } from '../../src/schemas/subjects.js';

const words = { describeValue, quote };
const page = z.object({ data: z.array(z.object({ id: z.int(), name: z.string() })), total: z.int() });
const item = (id: number) => ({ id, name: `item ${id}` });
const paths = (verdict: ReturnType<typeof checkWithZod>) =>
  'issues' in verdict ? verdict.issues.map((issue) => issue.path.join('.')) : [];

/** The schema, recording how many issues each of zod's passes listed. */
function counting<T>(schema: CheckedSchema<T>) {
  const listed: number[] = [];
  const counted: CheckedSchema<T> = {
    safeParse(value, params) {
      const result = schema.safeParse(value, params);
      listed.push(result.success ? 0 : result.error.issues.length);
      return result;
    },
  };
  return { counted, listed };
}

describe('checkWithZod, zod deciding and explaining a body the generated parser left to it', () => {
  it("gives zod's output for a body zod accepts", () => {
    const body = { data: [item(1)], total: 1, extra: true };
    expect(checkWithZod(page, body, words)).toEqual({ data: { data: [item(1)], total: 1 } });
  });

  it('explains every refused item of a short list, and every field of each', () => {
    const body = { data: [item(1), { id: 'two' }, item(3), { name: 4 }], total: 'four' };
    expect(paths(checkWithZod(page, body, words))).toEqual([
      'data.1.id',
      'data.1.name',
      'data.3.id',
      'data.3.name',
      'total',
    ]);
  });

  it('lists a bounded number of issues for a list wrong throughout, and says where it stopped', () => {
    const { counted, listed } = counting(subjectListSchema);
    const verdict = checkWithZod(counted, new Array(100_000).fill({}), words);
    if (!('issues' in verdict)) throw new Error('expected a refusal');
    // Six fields a subject, in the first refused item and the ones explained past it.
    expect(verdict.issues).toHaveLength((explainedItems + 1) * 6 + 1);
    expect(verdict.issues.at(-1)).toEqual({
      path: [],
      message: `each list explained up to ${explainedItems} items past its first refused one`,
    });
    // zod's verdict stops at the first refused field; its explanation sees the cut copy only.
    expect(listed).toEqual([1, (explainedItems + 1) * 6]);
  });

  it('keeps the index of a refused item deep in a long list', () => {
    const data = Array.from({ length: 50_000 }, (_, index) => item(index));
    data[40_000] = { id: 40_000 } as never;
    data[40_001] = { id: 'x', name: 'y' } as never;
    expect(paths(checkWithZod(page, { data, total: 50_000 }, words))).toEqual([
      'data.40000.name',
      'data.40001.id',
      '',
    ]);
  });

  it('explains the copy `hide` makes, and copies a `__proto__` key as a plain one', () => {
    const body = JSON.parse(
      '{"data":[{"id":"sk_secret","name":"x","__proto__":{"polluted":true}}],"total":1}',
    );
    const hide = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('sk_secret', '[redacted]'));
    const verdict = checkWithZod(page, body, words, hide);
    expect(verdict).toEqual({
      issues: [{ path: ['data', 0, 'id'], message: 'expected a number, got string "[redacted]"' }],
    });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe("checkWithZod beside a host app's own zod configuration", () => {
  const body = { data: [{ id: '7', name: 'x' }], total: 1 };
  const expected = checkWithZod(page, body, words);

  /** Runs `check` with zod configured as `config` (process-wide, as a host app does), then undoes it. */
  function configured<T>(config: Parameters<typeof z.config>[0], check: () => T): T {
    const before = { ...z.config() };
    z.config(config);
    try {
      return check();
    } finally {
      z.config({ localeError: before.localeError, customError: before.customError });
    }
  }

  it('words the issues as without it: a locale the host loaded, or its customError', async () => {
    const { default: de } = await import('zod/v4/locales/de.js');
    expect(configured(de(), () => checkWithZod(page, body, words))).toEqual(expected);
    const custom = () => 'APP-ERROR';
    expect(configured({ customError: custom }, () => checkWithZod(page, body, words))).toEqual(expected);
  });

  it('never calls a customError of the host, which may throw', () => {
    const throwing = () => {
      throw new Error('the host app’s error map');
    };
    expect(configured({ customError: throwing }, () => checkWithZod(page, body, words))).toEqual(expected);
  });
});
