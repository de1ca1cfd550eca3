/**
 * `npm run measure:zod`: classic zod or zod/mini under the SDK's response validation, for size and
 * speed together. Not part of `npm test` (timings are machine-dependent); its table goes in the notes.
 *
 * Both variants are what the SDK ships: the ten response schemas (src/schemas/response-schemas.ts),
 * each with its build-time parser (src/schemas/parsers.generated.ts) installed by zod's `withParser`,
 * validated through `safeParse`. Classic is the same schema source with 'zod/mini' aliased to 'zod'.
 *
 * Size: each variant bundled by esbuild for the browser, minified, gzip level 9 (as size-limit).
 * Speed: a 1,000-item page of journal papers (as text, from the mock), JSON.parse + safeParse, timed
 * interleaved with JSON.parse alone, as the median of the paired ratios; once valid (the parser's fast
 * path answers), once with its last paper refused (the parser gives up at the end and zod's runtime
 * parses the page again to explain), and, for reference, valid through the runtime alone.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from '../src/testing/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path: string) => JSON.stringify(join(root, path));

/** The SDK's validation: every schema with its parser installed, as src/schemas/shapes.ts does it. */
const shipped = `
import { withParser } from 'zod/v4/core';
import { parsers } from ${at('src/schemas/parsers.generated.ts')};
import { responseSchemas } from ${at('src/schemas/response-schemas.ts')};
const fast = {};
for (const name of Object.keys(responseSchemas)) fast[name] = withParser(responseSchemas[name], parsers[name]);
export const check = (name, value) => fast[name].safeParse(value);`;

/** For timing only: the runtime without the parser, for reference. */
const timed = `${shipped}
export const runtime = (name, value) => responseSchemas[name].safeParse(value);`;

interface Variant {
  name: string;
  alias: Record<string, string>;
}

const variants: Variant[] = [
  { name: 'zod/mini (shipped)', alias: {} },
  { name: 'classic zod', alias: { 'zod/mini': 'zod' } },
];

interface Checker {
  check(name: string, value: unknown): { success: boolean; data?: unknown };
  runtime(name: string, value: unknown): { success: boolean; data?: unknown };
}

async function bundle(variant: Variant, contents: string, platform: 'browser' | 'node'): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: 'entry.js', loader: 'js' },
    bundle: true,
    platform,
    format: 'esm',
    minify: true,
    treeShaking: true,
    legalComments: 'none',
    alias: variant.alias,
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`${variant.name}: esbuild wrote nothing`);
  return file.contents;
}

async function pageText(): Promise<string> {
  const api = createMockApi({ sizes: { journals: 1, papers: 1000 } });
  const data: unknown[] = [];
  for (let page = 1; page <= 10; page++) {
    const response = await api.fetch(`${MOCK_BASE_URL}/journals/1/papers?page=${page}&per_page=100`, {
      headers: { authorization: `Bearer ${MOCK_API_KEY}` },
    });
    data.push(...((await response.json()) as { data: unknown[] }).data);
  }
  if (data.length !== 1000) throw new Error(`expected 1,000 papers, got ${data.length}`);
  return JSON.stringify({ data, total: data.length });
}

/** The same page, its last paper's year a float: refused only at the end of the fast path. */
function refusedText(text: string): string {
  const page = JSON.parse(text) as { data: { year: number }[] };
  page.data.at(-1)!.year = 2020.5;
  return JSON.stringify(page);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function time(run: () => unknown, batch: number): number {
  const start = performance.now();
  for (let i = 0; i < batch; i++) run();
  return (performance.now() - start) / batch;
}

async function main() {
  const text = await pageText();
  const refused = refusedText(text);
  const rows = [];
  const checkers: Checker[] = [];
  for (const variant of variants) {
    const code = await bundle(variant, shipped, 'browser');
    const nodeCode = Buffer.from(await bundle(variant, timed, 'node')).toString('base64');
    const checker = (await import(`data:text/javascript;base64,${nodeCode}`)) as Checker;
    const accepted = checker.check('journalPaperPage', JSON.parse(text));
    if (JSON.stringify(accepted.data) !== text) throw new Error(`${variant.name}: wrong output`);
    if (checker.check('journalPaperPage', JSON.parse(refused)).success) {
      throw new Error(`${variant.name}: accepted a float year`);
    }
    checkers.push(checker);
    rows.push({ name: variant.name, gzip: gzipSync(code, { level: 9 }).length, min: code.length });
  }
  // Interleaved rounds: JSON.parse alone, then every variant and path, so drift hits all alike.
  const paths = [
    { text, run: (c: Checker, value: unknown) => c.check('journalPaperPage', value) },
    { text: refused, run: (c: Checker, value: unknown) => c.check('journalPaperPage', value) },
    { text, run: (c: Checker, value: unknown) => c.runtime('journalPaperPage', value) },
  ];
  const samples = checkers.map(() => paths.map(() => [] as number[]));
  const base: number[] = [];
  for (let round = -30; round < 150; round++) {
    const parseOnly = time(() => JSON.parse(text), 4);
    const each = checkers.map((checker) =>
      paths.map((path) => time(() => path.run(checker, JSON.parse(path.text)), 2)),
    );
    if (round < 0) continue; // warm-up
    base.push(parseOnly);
    each.forEach((ms, i) => {
      ms.forEach((value, j) => {
        samples[i]![j]!.push(value / parseOnly);
      });
    });
  }
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
  const ratio = (values: number[]) => `${median(values).toFixed(2)}×`;
  console.log(`Node ${process.version}; page of 1,000 journal papers, ${Buffer.byteLength(text)} bytes`);
  console.log(`JSON.parse alone: median ${median(base).toFixed(3)} ms`);
  console.log('');
  console.log(
    '| zod | min+gzip (browser) | minified | valid page, fast path | refused page, fast path then runtime | valid page, runtime alone |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  rows.forEach((row, i) => {
    const [fast, refusal, runtime] = samples[i]!.map(ratio);
    console.log(`| ${row.name} | ${kB(row.gzip)} | ${kB(row.min)} | ${fast} | ${refusal} | ${runtime} |`);
  });
  console.log('');
  console.log('Times are JSON.parse + safeParse ÷ JSON.parse alone, medians of paired rounds.');
}

await main();
