// What each dependency weighs inside the client's browser bundle, for BENCHMARKS.md (bench/size.ts):
// the whole client bundled as scripts/size-limit.config.mjs bundles it, then again with one
// dependency left out (external). The difference is that dependency's share once tree-shaken in the
// client's context; gzip makes the shares add up only roughly.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const path = join(process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url)), 'index.js');
const modifyRolldownConfig = (config) => ({ ...config, platform: 'browser' });
const base = { path, import: '{ MetricClient }', gzip: true, modifyRolldownConfig };
const client = (name, ignore = []) => ({ name, ...base, ignore });
export const parts = { ky: ['ky'], zod: ['zod'], 'p-retry': ['p-retry', 'is-network-error'] };

export default [
  client('whole'),
  ...Object.entries(parts).map(([name, modules]) => client(`without ${name}`, modules)),
  client('without any dependency', Object.values(parts).flat()),
];
