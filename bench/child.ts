// `tsx bench/child.ts FILE [EXPORT] [ARG]`: a benchmark module's `measure` (or EXPORT) called with ARG
// (JSON) in a process of its own, its result printed as the last line of JSON for bench/run.ts.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './lib.js';

const [file, fn = 'measure', arg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/child.ts FILE [EXPORT] [ARG]');
const module = (await import(pathToFileURL(join(root, 'bench', file)).href)) as Record<string, unknown>;
const run = module[fn] as (arg?: unknown) => Promise<unknown>;
const result = await run(arg === undefined ? undefined : JSON.parse(arg));
console.log(JSON.stringify(result));
