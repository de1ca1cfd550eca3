/**
 * 3. Validation: one 1,000-item page of journal papers, as text, turned into a checked value. The
 * SDK's check is the shape's parser generated at build time (src/schemas/shapes.ts), which hands to
 * zod's runtime only what it cannot decide. Beside it, the SDK's whole
 * path (`parseResponse`: the same plus its error handling) and zod's runtime alone on the raw schema
 * (src/schemas/response-schemas.ts, no fast path), for comparison.
 */
import { deepStrictEqual } from 'node:assert';
import { safeParse } from 'zod/mini';
import { INVALID } from 'zod/v4/core';
import { parseResponse } from '../src/core/validate.js';
import { responseSchemas } from '../src/schemas/response-schemas.js';
import { shapes } from '../src/schemas/shapes.js';
import { validationNames as names } from './config.js';
import { type Contender, interleave, pageText, pairedRatios, report, type Spread, spread } from './lib.js';

export interface ValidationResult {
  items: number;
  bytes: number;
  rounds: number;
  batch: number;
  contenders: Array<{ name: string; wall: Spread }>;
  /** Each contender over JSON.parse alone, paired per round. */
  ratios: Array<{ of: string; wall: Spread }>;
}

async function main(): Promise<ValidationResult> {
  const text = await pageText();
  const secret = 'sk_bench_not_in_the_body';
  const contenders: Contender[] = [
    { name: names.parse, run: () => JSON.parse(text) },
    {
      name: names.fast,
      run: () => {
        const result = shapes.journalPaperPage.parse(JSON.parse(text));
        if (result === INVALID) throw new Error('the generated parser refused the page');
        return result;
      },
    },
    { name: names.sdk, run: () => parseResponse(shapes.journalPaperPage, text, secret) },
    {
      name: names.runtime,
      run: () => {
        const result = safeParse(responseSchemas.journalPaperPage, JSON.parse(text));
        if (!result.success) throw result.error;
        return result.data;
      },
    },
  ];
  // Every contender accepts the page and gives back the same value.
  const expected = JSON.parse(text);
  for (const contender of contenders) deepStrictEqual(await contender.run(0), expected);

  const rounds = 200;
  const batch = 8;
  const samples = await interleave(contenders, { rounds, batch, warmup: 50 });
  const wall = (name: string) => samples.get(name)!.wall;
  return {
    items: 1000,
    bytes: Buffer.byteLength(text),
    rounds,
    batch,
    contenders: contenders.map(({ name }) => ({ name, wall: spread(wall(name)) })),
    ratios: contenders
      .slice(1)
      .map(({ name }) => ({ of: name, wall: spread(pairedRatios(wall(name), wall(names.parse))) })),
  };
}

await report(main);
