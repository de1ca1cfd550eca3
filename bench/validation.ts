// §3, validation: a 1,000-item page, text to checked value, each way against `JSON.parse` alone.
import { deepStrictEqual } from 'node:assert';
import { safeParse } from 'zod/mini';
import { INVALID } from 'zod/v4/core';
import { parseResponse } from '../src/core/validate.js';
import { responseSchemas } from '../src/schemas/response-schemas.js';
import { shapes } from '../src/schemas/shapes.js';
import { atMost, count, find, range, table, us, verdict, x } from './format.js';
import { compare, pageText, scaled } from './lib.js';

export const about = { id: '3', key: 'validation', file: 'validation.ts' } as const;
const names = {
  parse: 'JSON.parse alone',
  fast: 'JSON.parse + shape.safeParse (generated parser via withParser)',
  sdk: 'parseResponse (the SDK’s whole path)',
  runtime: 'JSON.parse + zod/mini safeParse (runtime, no fast path)',
} as const;
const target = 1.3;

export async function measure() {
  const text = await pageText();
  const fast = () => {
    const result = shapes.journalPaperPage.parse(JSON.parse(text));
    if (result === INVALID) throw new Error('the generated parser refused the page');
    return result;
  };
  const runtime = () => {
    const result = safeParse(responseSchemas.journalPaperPage, JSON.parse(text));
    if (!result.success) throw result.error;
    return result.data;
  };
  const contenders = [
    { name: names.parse, run: () => JSON.parse(text) },
    { name: names.fast, run: fast },
    { name: names.sdk, run: () => parseResponse(shapes.journalPaperPage, text, 'sk_bench_not_in_the_body') },
    { name: names.runtime, run: runtime },
  ];
  // Every contender accepts the page and gives back the same value.
  for (const contender of contenders) deepStrictEqual(await contender.run(), JSON.parse(text));
  const options = { rounds: scaled(200, 6), batch: scaled(8, 2), warmup: scaled(50, 2) };
  const pairs = contenders.slice(1).map(({ name }) => [name, names.parse] as const);
  const { samples: _, ...figures } = await compare(contenders, options, pairs);
  return { items: 1000, bytes: Buffer.byteLength(text), ...figures };
}

type ValidationResult = Awaited<ReturnType<typeof measure>>;

const ratio = (v: ValidationResult, of: string) => find(v.ratios, (r) => r.of === of, of).wall.median;
const wall = (v: ValidationResult, name: string) => find(v.contenders, (c) => c.name === name, name).wall;

export const rows = (v: ValidationResult) => [
  atMost(
    'a 1,000-item page: `JSON.parse` + the shape’s `safeParse` ÷ `JSON.parse` alone',
    `${x(ratio(v, names.fast))} (zod’s runtime alone: ${x(ratio(v, names.runtime))})`,
    ratio(v, names.fast),
    target,
    x(target, 1),
  ),
];

export const text = (v: ValidationResult) => `## 3. Validation

A ${count(v.items)}-item page of journal papers (${(v.bytes / 1024).toFixed(0)} KB of JSON, the mock's own papers), text to
checked value, ${v.rounds} rounds of ${v.batch}. The SDK checks a body with the shape's \`safeParse\` (src/schemas/shapes.ts):
zod's own method on a schema given the parser generated at build time as its fast path (\`withParser\`),
so zod's runtime runs only on a body the parser refuses, to explain it. Beside it, the SDK's whole path
(\`parseResponse\`) and zod's runtime alone on the raw schema (src/schemas/response-schemas.ts).

${table(
  ['contender', 'time per page (p25 to p75)', '÷ JSON.parse alone (p25 to p75)'],
  v.contenders.map((c) => {
    const r = v.ratios.find((q) => q.of === c.name);
    return [c.name, range(c.wall, us), r ? range(r.wall) : '1'];
  }),
)}

Target ≤ ${x(target, 1)}: ${verdict(ratio(v, names.fast) <= target)} at ${x(ratio(v, names.fast))}. What is left over \`JSON.parse\` is one pass that checks each
field and builds the output (zod's semantics: new objects, unknown keys kept). zod's runtime on the same
page costs ${us(wall(v, names.runtime).median)} against ${us(wall(v, names.parse).median)} for \`JSON.parse\` alone.`;
