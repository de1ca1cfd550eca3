/**
 * 6. Cold start: a fresh Node process imports the package, or the libraries it is built on, and
 * reports how long the imports took. Each contender is a new process per round, round-robin.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coldStartNames as names } from './config.js';
import { dist, median, report } from './lib.js';

export interface ColdStartResult {
  rounds: number;
  contenders: Array<{ name: string; importMs: number; processMs: number }>;
}

const resolve = (specifier: string) => import.meta.resolve(specifier);
const imports = (...specifiers: string[]) =>
  specifiers.map((specifier) => `await import(${JSON.stringify(resolve(specifier))});`).join(' ');

/** What each child runs: `load` is timed from the first import to the last. */
const contenders: Array<{ name: string; load: string }> = [
  { name: names.sdk, load: `await import(${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)});` },
  {
    name: names.sdkCjs,
    load: `createRequire(import.meta.url)(${JSON.stringify(join(dist, 'index.cjs'))});`,
  },
  // What the package's entry imports from its dependencies at load.
  { name: names.stack, load: imports('ky', 'p-retry', 'zod/mini', 'zod/v4/core') },
  { name: names.kyMini, load: imports('ky', 'zod/mini') },
  { name: names.kyZod, load: imports('ky', 'zod') },
  { name: names.nothing, load: '' },
];

function run(load: string): { importMs: number; processMs: number } {
  // `performance.now()` counts from the process's own start: at the end it is the whole startup.
  const script = [
    "import { createRequire } from 'node:module';",
    'const started = performance.now();',
    load,
    'const importMs = performance.now() - started;',
    'process.stdout.write(JSON.stringify({ importMs, processMs: performance.now() }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as { importMs: number; processMs: number };
}

async function main(): Promise<ColdStartResult> {
  const rounds = 25;
  const samples = new Map(
    contenders.map((c) => [c.name, { importMs: [] as number[], processMs: [] as number[] }]),
  );
  for (const contender of contenders) run(contender.load); // file-system caches warm for everyone
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(k + round) % contenders.length]!;
      const { importMs, processMs } = run(contender.load);
      const sample = samples.get(contender.name)!;
      sample.importMs.push(importMs);
      sample.processMs.push(processMs);
    }
  }
  return {
    rounds,
    contenders: contenders.map(({ name }) => ({
      name,
      importMs: median(samples.get(name)!.importMs),
      processMs: median(samples.get(name)!.processMs),
    })),
  };
}

await report(main);
