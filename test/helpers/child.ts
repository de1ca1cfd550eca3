import { fileURLToPath } from 'node:url';
import { spawnNode } from './spawn.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a script of the test suite in a child Node with `--expose-gc`, bundled with the source it
 * imports, and resolves to its exit code and output.
 */
export async function runWithGc(
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await spawnNode(script, args, {
    execArgv: ['--expose-gc'],
    cwd: root,
    bundle: true,
  }).exited;
  return { code, stdout, stderr };
}
