import { describe, expect, it } from 'vitest';
import { expectPaced } from './paced.js';

describe('expectPaced', () => {
  it('accepts starts a spacing apart, late ones and in any order', () => {
    expectPaced([1_000, 1_200, 1_400], 1_000, 200);
    expectPaced([1_650, 1_001, 1_700], 1_000, 200);
  });

  it('refuses a burst and a shorter spacing', () => {
    expect(() => expectPaced([1_000, 1_001, 1_002], 1_000, 200)).toThrow(/k × 200 ms/);
    expect(() => expectPaced([1_000, 1_150, 1_300], 1_000, 200)).toThrow(/k × 200 ms/);
  });
});
