// §6, cold start: a fresh Node process per import and round, round-robin, timing its imports.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ms, named, table } from './format.js';
import { dist, medians, roundRobin, runNode, scaled } from './lib.js';
import type { Report, Results } from './report.js';

export const about = { id: '6', key: 'coldStart', file: 'cold-start.ts', title: 'Cold import' };

const imports = (specifiers: string) =>
  specifiers.replace(/\S+/g, (s) => `await import(${JSON.stringify(import.meta.resolve(s))});`);

/** What each child runs: `load` is timed from the first import to the last. */
const loads = {
  'scholarly-metrics (ESM)': `await import(${JSON.stringify(pathToFileURL(join(dist, 'index.js')).href)});`,
  'scholarly-metrics (CommonJS)': `createRequire(import.meta.url)(${JSON.stringify(join(dist, 'index.cjs'))});`,
  'ky + p-retry + zod/mini + zod/v4/core (what the package imports)': imports(
    'ky p-retry zod/mini zod/v4/core',
  ),
  'ky + zod/mini': imports('ky zod/mini'),
  'ky + zod': imports('ky zod'),
  'an empty script': '',
};
const [sdk, , stack] = Object.keys(loads) as [string, string, string];

/** `performance.now()` counts from the process's own start: at the end it is the whole startup. */
const run = async (load: string): Promise<{ importMs: number; processMs: number }> => {
  const script = `import { createRequire } from 'node:module'; const started = performance.now(); ${load}
process.stdout.write(JSON.stringify({ importMs: performance.now() - started, processMs: performance.now() }));`;
  return JSON.parse(await runNode(['--input-type=module', '-e', script]));
};

export async function measure() {
  const rounds = scaled(25, 2);
  for (const load of Object.values(loads)) await run(load); // file-system caches warm for everyone
  const runs = await roundRobin(Object.keys(loads), rounds, (name) => run(loads[name as keyof typeof loads]));
  const times = ['importMs', 'processMs'] as const;
  return { rounds, contenders: [...runs].map(([name, list]) => ({ name, ...medians(list, times) })) };
}

const importMs = (c: Results['coldStart'], name: string) => ms(named(c.contenders, name).importMs, 1);

export function report(c: Results['coldStart']): Report {
  const what = 'cold import: the package (ESM) / the libraries it imports';
  const rows = c.contenders.map((r) => [r.name, ms(r.importMs, 1), ms(r.processMs, 1)]);
  const text = `A fresh \`node\` process per import, ${c.rounds} rounds, round-robin. *import*: from the first import to the last; *process*:
from the process's start to the end of its imports.

${table(['what is imported', 'import', 'process'], rows)}

The package imports ky, p-retry and zod at load (they are in the request path): ${importMs(c, sdk)} against ${importMs(c, stack)} for
those libraries alone; the difference is the package itself.`;
  return { rows: [{ what, figure: `${importMs(c, sdk)} / ${importMs(c, stack)}` }], text };
}
