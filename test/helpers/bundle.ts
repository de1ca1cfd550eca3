/**
 * A script of the suite that imports the TypeScript source, bundled once per test process into one
 * JavaScript file that Node runs as it is. Spawning it through tsx instead compiled (or read from its
 * cache) every module again in each child, which cost more than the child's own work in the suites
 * that start many (the Redis worker processes, the heap checks).
 */

import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { alive } from './alive.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the packages left out of the bundle resolve from its node_modules.
const folder = join(root, 'node_modules/.cache/scholarly-metrics/spawned');
const bundles = new Map<string, string>();
// The package's own names (as the examples import them) are the source under test, never a build
// that may be stale.
const ownNames = {
  'scholarly-metrics': 'src/index.ts',
  'scholarly-metrics/webhooks': 'src/webhooks/index.ts',
  'scholarly-metrics/testing': 'src/testing/index.ts',
  'scholarly-metrics/redis': 'src/redis/index.ts',
};
const alias = Object.fromEntries(Object.entries(ownNames).map(([name, file]) => [name, join(root, file)]));

/** The path of `script` bundled (built on first use in this process; packages stay imports). */
export function bundled(script: string): string {
  let outfile = bundles.get(script);
  if (outfile === undefined) {
    mkdirSync(folder, { recursive: true });
    if (bundles.size === 0) removeLeftovers();
    outfile = join(folder, `${basename(script).replace(/\.\w+$/, '')}-${process.pid}-${bundles.size}.mjs`);
    buildSync({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
      alias,
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    bundles.set(script, outfile);
  }
  return outfile;
}

/**
 * Bundles are named by process, so that workers never share one; a test worker is stopped without
 * an exit of its own to clean up in, so the first bundle of a process removes those of processes
 * that have ended.
 */
function removeLeftovers(): void {
  for (const file of readdirSync(folder)) {
    const pid = Number(/-(\d+)-\d+\.mjs$/.exec(file)?.[1]);
    if (Number.isSafeInteger(pid) && !alive(pid)) rmSync(join(folder, file), { force: true });
  }
}
