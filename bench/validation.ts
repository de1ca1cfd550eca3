// §3, validation: a 1,000-item page, text to checked value, each way against `JSON.parse` alone.
import { safeParse } from 'zod/mini';
import { parseResponse } from '../src/core/validate.js';
import { responseSchemas } from '../src/schemas/response-schemas.js';
import { shapes } from '../src/schemas/shapes.js';
import { atMost, count, ratioOf, timesTables, x } from './format.js';
import { compare, pageText, scaled } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '3', key: 'validation', file: 'validation.ts', title: 'Validation' };
const names = {
  parse: 'JSON.parse alone',
  fast: 'JSON.parse + shape.safeParse (generated parser via withParser)',
  sdk: 'parseResponse (the SDK’s whole path)',
  runtime: 'JSON.parse + zod/mini safeParse (runtime, no fast path)',
} as const;
const target = 1.3;

export async function measure() {
  const [text, page] = [await pageText(), shapes.journalPaperPage];
  const runs = {
    [names.parse]: () => JSON.parse(text),
    [names.fast]: () => page.parse(JSON.parse(text)),
    [names.sdk]: () => parseResponse(page, text, 'sk_bench_not_in_the_body'),
    [names.runtime]: () => safeParse(responseSchemas.journalPaperPage, JSON.parse(text)).data,
  };
  // `same`: every contender accepts the page and gives back `JSON.parse`'s value.
  const options = { rounds: scaled(200, 6), batch: scaled(8, 2), warmup: scaled(50, 2), same: 1 };
  const pairs = [names.fast, names.sdk, names.runtime].map((name) => [name, names.parse] as const);
  const { samples: _, ...figures } = await compare(runs, options, pairs);
  return { items: 1000, bytes: Buffer.byteLength(text), ...figures };
}

const ratio = (v: Results['validation'], of: string) => ratioOf(v.ratios, of).wall.median;

export function report(v: Results['validation']): Report {
  const fast = ratio(v, names.fast);
  const what = 'a 1,000-item page: `JSON.parse` + the shape’s `safeParse` ÷ `JSON.parse` alone';
  const figure = `${x(fast)} (zod’s runtime alone: ${x(ratio(v, names.runtime))})`;
  const text = `A ${count(v.items)}-item page of journal papers (${(v.bytes / 1024).toFixed(0)} KB of JSON, the mock's own), text to checked value, ${v.rounds} rounds
of ${v.batch}. The SDK checks a body with the shape's \`safeParse\` (src/schemas/shapes.ts): zod's method on a schema given
the parser generated at build time as its fast path (\`withParser\`); zod's runtime runs only on a body the parser
refuses, to explain it. Beside it, the SDK's whole path (\`parseResponse\`) and zod's runtime alone on the raw schema.

${timesTables(v, 'page')}

The shape's \`safeParse\` is one pass over \`JSON.parse\`'s value that checks each field and builds the output (zod's
semantics: new objects, unknown keys kept).`;
  return { rows: [atMost(what, figure, fast, target, x(target, 1))], text };
}
