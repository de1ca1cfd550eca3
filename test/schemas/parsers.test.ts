import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { generate, outputPath } from '../../scripts/generate-parsers.js';
import { INVALID } from '../../src/schemas/invalid.js';
import { responseSchemas } from '../../src/schemas/response-schemas.js';
import { shapes } from '../../src/schemas/shapes.js';

it('the committed generated parsers match the schemas (run `npm run generate` after a schema change)', () => {
  expect(readFileSync(outputPath, 'utf8')).toBe(generate());
});

/** Values near the documented shapes, with every field sometimes wrong, missing or extra. */
const fieldValue = fc.oneof(
  fc.integer({ min: -5, max: 1_000 }),
  fc.double(),
  fc.constantFrom(
    2 ** 53,
    -0,
    Number.NaN,
    '7',
    '',
    'Q1',
    '2024-02-29',
    '2023-02-29',
    '2024-13-01',
    true,
    null,
  ),
  fc.string({ maxLength: 8 }),
  fc.constant(undefined),
);

function nearly(keys: readonly string[]) {
  return fc
    .record(Object.fromEntries([...keys, 'extra', '__proto__'].map((k) => [k, fieldValue])), {
      requiredKeys: [],
    })
    .map((record) => JSON.parse(JSON.stringify(record)) as unknown);
}

const keysOf = (schema: unknown): string[] => {
  const def = (schema as { _zod: { def: { shape?: object; element?: unknown; type: string } } })._zod.def;
  if (def.type === 'array') return keysOf(def.element);
  return def.shape ? Object.keys(def.shape) : [];
};

describe('every generated parser decides exactly as zod does', () => {
  for (const [name, schema] of Object.entries(responseSchemas)) {
    const fast = shapes[name as keyof typeof shapes].parse as (input: unknown) => unknown;
    const item = nearly(keysOf(schema));
    const input = fc.oneof(
      fc.anything(),
      item,
      fc.array(item, { maxLength: 3 }),
      fc.record({ data: fc.array(fc.oneof(item, fc.anything()), { maxLength: 3 }), total: fieldValue }),
      fc.record({
        current: fieldValue,
        quartile: fieldValue,
        history: fc.array(nearly(['date', 'score']), { maxLength: 3 }),
      }),
    );
    it(name, () => {
      fc.assert(
        fc.property(input, (value) => {
          const reference = z.safeParse(schema as z.ZodMiniType, value);
          const out = fast(value);
          if (out === INVALID) {
            // The fast path may only refuse what zod refuses too.
            expect(reference.success).toBe(false);
          } else {
            expect(reference.success).toBe(true);
            expect(out).toEqual(reference.data);
          }
        }),
        { numRuns: 2_000 },
      );
    });
  }
});
