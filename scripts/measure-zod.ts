/**
 * `npm run measure:zod`: how the response validation could ship, measured for size and speed together.
 * Not part of `npm test` (timings are machine-dependent); its output is recorded in the notes.
 *
 * The same ten response schemas (src/schemas/response-schemas.ts) in five ways:
 * - classic:          `zod` (the schemas built with classic zod: 'zod/mini' aliased to 'zod'), safeParse
 * - mini:             `zod/mini`, safeParse
 * - classic + compile: classic zod, schemas passed through `z.compile` at load (needs `new Function`)
 * - mini + compile:   zod/mini, `z.compile` at load (needs `new Function`)
 * - build-time:       src/schemas/parsers.generated.ts, the source zod's compiler generates at build
 *                     time (what the SDK ships; zod itself then loads only to explain a refusal)
 *
 * Size: each variant bundled by rolldown for the browser, minified, gzip level 9 (as size-limit).
 * Speed: a 1,000-item page of journal papers (as text, from the mock), JSON.parse + validation, each
 * variant bundled for Node and timed interleaved with JSON.parse alone; medians of paired ratios.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'rolldown';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } from '../src/testing/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const schemas = join(root, 'src/schemas/response-schemas.ts');
const generated = join(root, 'src/schemas/parsers.generated.ts');

interface Variant {
  name: string;
  classic: boolean;
  entry: string;
}

const viaZod = (compile: boolean) => `
import { ${compile ? 'compile, ' : ''}safeParse } from 'zod/mini';
import { responseSchemas } from ${JSON.stringify(schemas)};
const table = {};
for (const [name, schema] of Object.entries(responseSchemas)) table[name] = ${compile ? 'compile(schema)' : 'schema'};
export function parse(name, value) {
  const result = safeParse(table[name], value);
  return result.success ? result.data : undefined;
}`;

const variants: Variant[] = [
  { name: 'classic zod', classic: true, entry: viaZod(false) },
  { name: 'zod/mini', classic: false, entry: viaZod(false) },
  { name: 'classic zod + z.compile', classic: true, entry: viaZod(true) },
  { name: 'zod/mini + z.compile', classic: false, entry: viaZod(true) },
  {
    name: 'build-time generated parsers (shipped)',
    classic: false,
    entry: `
import * as parsers from ${JSON.stringify(generated)};
import { INVALID } from ${JSON.stringify(join(root, 'src/schemas/invalid.ts'))};
export function parse(name, value) {
  const out = parsers[name](value);
  return out === INVALID ? undefined : out;
}`,
  },
];

async function bundle(variant: Variant, dir: string, platform: 'browser' | 'node'): Promise<string> {
  const input = join(dir, `${variant.name.replace(/\W+/g, '-')}-${platform}-entry.js`);
  writeFileSync(input, variant.entry);
  const file = input.replace('-entry.js', '.js');
  await build({
    input,
    platform,
    // Classic zod in place of zod/mini, by file: rolldown does not alias one package name to another.
    resolve: variant.classic ? { alias: { 'zod/mini': fileURLToPath(import.meta.resolve('zod')) } } : {},
    treeshake: true,
    output: { file, format: 'esm', minify: true, comments: { annotation: false } },
    logLevel: 'silent',
  });
  return file;
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
  // Inside the project, so that the entries resolve zod from node_modules.
  const dir = join(root, 'node_modules', '.cache', 'scholarly-metrics', 'measure-zod');
  mkdirSync(dir, { recursive: true });
  try {
    const text = await pageText();
    const expected = JSON.parse(text);
    const rows: { name: string; gzip: number; min: number; ratio: number }[] = [];
    const parsers: { name: string; parse: (name: string, value: unknown) => unknown }[] = [];
    for (const variant of variants) {
      const browserFile = await bundle(variant, dir, 'browser');
      const code = readFileSync(browserFile);
      const nodeFile = await bundle(variant, dir, 'node');
      const { parse } = (await import(pathToFileURL(nodeFile).href)) as {
        parse: (name: string, value: unknown) => unknown;
      };
      const out = parse('journalPaperPage', JSON.parse(text));
      if (JSON.stringify(out) !== JSON.stringify(expected)) throw new Error(`${variant.name}: wrong output`);
      parsers.push({ name: variant.name, parse });
      rows.push({
        name: variant.name,
        gzip: gzipSync(code, { level: 9 }).length,
        min: code.length,
        ratio: 0,
      });
    }
    // Interleaved rounds: JSON.parse alone, then every variant, so drift hits all alike.
    const rounds = 120;
    const batch = 4;
    const base: number[] = [];
    const samples = parsers.map(() => [] as number[]);
    for (let round = -30; round < rounds; round++) {
      const parseOnly = time(() => JSON.parse(text), batch);
      const each = parsers.map(({ parse }) => time(() => parse('journalPaperPage', JSON.parse(text)), batch));
      if (round < 0) continue; // warm-up
      base.push(parseOnly);
      each.forEach((ms, i) => {
        samples[i]!.push(ms / parseOnly);
      });
    }
    rows.forEach((row, i) => {
      row.ratio = median(samples[i]!);
    });
    const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
    console.log(`Node ${process.version}; page of 1,000 journal papers, ${Buffer.byteLength(text)} bytes`);
    console.log(`JSON.parse alone: median ${median(base).toFixed(3)} ms`);
    console.log('');
    console.log('| way | min+gzip (browser) | minified | JSON.parse + validate, × JSON.parse alone |');
    console.log('| --- | --- | --- | --- |');
    for (const row of rows) {
      console.log(`| ${row.name} | ${kB(row.gzip)} | ${kB(row.min)} | ${row.ratio.toFixed(2)}× |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
