import { fileURLToPath } from 'node:url';
import { spawnNode } from './spawn.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a script of the test suite in a child Node with `--expose-gc`, loading the source through tsx,
 * and resolves to its exit code and output.
 */
export async function runWithGc(
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // tsx for a .mjs too: such a script imports the TypeScript source.
  const execArgv = ['--expose-gc', ...(script.endsWith('.ts') ? [] : ['--import', 'tsx'])];
  const { code, stdout, stderr } = await spawnNode(script, args, { execArgv, cwd: root }).exited;
  return { code, stdout, stderr };
}
