// The calendar date pattern is written twice: in date-pattern.ts, for the generated parser and the
// webhook checks, and in the zod schemas, which load on demand (common.ts says why). Both are zod's own.

import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/v4/core';
import { isoDatePattern } from '../../src/schemas/common.js';
import { datePattern } from '../../src/schemas/date-pattern.js';

describe('the calendar date pattern', () => {
  it('is one pattern in the schemas, the parser and the webhook checks: zod’s own ISO date', () => {
    expect(isoDatePattern.source).toBe(datePattern.source);
    expect(datePattern.source).toBe(regexes.date.source);
    expect(isoDatePattern.flags).toBe(datePattern.flags);
  });

  it('takes real calendar days only', () => {
    for (const day of ['2024-02-29', '2000-02-29', '1999-12-31', '0001-01-01'])
      expect(datePattern.test(day)).toBe(true);
    for (const day of ['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-1-01'])
      expect(datePattern.test(day)).toBe(false);
  });
});
