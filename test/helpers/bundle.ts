/**
 * A script of the suite that imports the TypeScript source, bundled once per test process into one
 * JavaScript file that Node runs as it is. Spawning it through tsx instead compiled (or read from its
 * cache) every module again in each child, which cost more than the child's own work in the suites
 * that start many (the Redis worker processes, the heap checks).
 */

import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the packages left out of the bundle resolve from its node_modules.
const folder = join(root, 'node_modules/.cache/scholarly-metrics/spawned');
const bundles = new Map<string, string>();

/** The path of `script` bundled (built on first use in this process; packages stay imports). */
export function bundled(script: string): string {
  let outfile = bundles.get(script);
  if (outfile === undefined) {
    mkdirSync(folder, { recursive: true });
    outfile = join(folder, `${basename(script).replace(/\.\w+$/, '')}-${process.pid}-${bundles.size}.mjs`);
    buildSync({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    bundles.set(script, outfile);
  }
  return outfile;
}
