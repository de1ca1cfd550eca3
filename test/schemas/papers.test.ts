import { expect, expectTypeOf, it } from 'vitest';
import { type PaperSummary, paperSummaryFields } from '../../src/schemas/papers.js';

it('paperSummaryFields lists every field of PaperSummary, each once (the type check is tsc’s)', () => {
  expectTypeOf<(typeof paperSummaryFields)[number]>().toEqualTypeOf<keyof PaperSummary>();
  expect(new Set(paperSummaryFields).size).toBe(paperSummaryFields.length);
});
