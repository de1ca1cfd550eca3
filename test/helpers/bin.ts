/**
 * The `scholarly-metrics` bin for tests that spawn it: the built dist/cli.js when it is newer than
 * every source file (npm test builds before the tests run), else src/cli/index.ts through tsx. A
 * built bin starts without compiling, which a spawn through tsx does each time.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = join(root, 'dist/cli.js');

export const cliBin = builtIsFresh() ? built : join(root, 'src/cli/index.ts');

/** Node's arguments before the script: tsx's loader for TypeScript. */
export function loaderFor(script: string): string[] {
  return script.endsWith('.ts') ? ['--import', 'tsx'] : [];
}

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
