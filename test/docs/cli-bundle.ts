/**
 * The command line's sources (src/cli/index.ts), bundled once per test file with esbuild and run by
 * plain `node`: a doc line that starts the command then pays for a Node start, not for tsx compiling
 * the whole SDK again on every start. Its packages stay imports, resolved from the repository's
 * node_modules, as tsx would resolve them.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './markdown.js';

const built = new Map<string, Promise<string>>();

/** The path of a bundle of `entry` (relative to the repository), built on first use. */
export function bundledCli(entry = 'src/cli/index.ts'): Promise<string> {
  let pending = built.get(entry);
  if (pending === undefined) {
    pending = bundle(entry);
    built.set(entry, pending);
  }
  return pending;
}

async function bundle(entry: string): Promise<string> {
  // Inside the repository, so that its imports of packages resolve from node_modules.
  const cache = join(root, 'node_modules', '.cache', 'scholarly-metrics');
  mkdirSync(cache, { recursive: true });
  const outfile = join(mkdtempSync(join(cache, 'cli-bundle-')), 'cli.mjs');
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  return outfile;
}
