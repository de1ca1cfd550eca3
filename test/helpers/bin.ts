/**
 * The `scholarly-metrics` bin for tests that spawn it, always a JavaScript file Node runs as it is:
 * the built dist/cli.js when it is newer than every source file (npm test builds before the tests
 * run), else src/cli/index.ts bundled once (bundle.ts), so that a test never runs a stale build.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundled } from './bundle.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = join(root, 'dist/cli.js');

export const cliBin = builtIsFresh() ? built : bundled(join(root, 'src/cli/index.ts'));

function builtIsFresh(): boolean {
  let builtAt: number;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return false;
  }
  const newest = (folder: string): number =>
    Math.max(
      0,
      ...readdirSync(folder, { withFileTypes: true }).map((entry) => {
        const path = join(folder, entry.name);
        return entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
      }),
    );
  return newest(join(root, 'src')) <= builtAt;
}
