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

/**
 * {@link runWithGc} for a script (beside the test: `new URL(file, import.meta.url)`) that ends by
 * printing one line of JSON: its exit code, its stderr when it failed, and that report.
 */
export async function reportWithGc(
  script: URL,
): Promise<{ code: number | null; stderr: string; report: unknown }> {
  const { code, stdout, stderr } = await runWithGc(fileURLToPath(script), []);
  if (code !== 0) return { code, stderr, report: undefined };
  return { code, stderr: '', report: JSON.parse(stdout.trim().split('\n').at(-1)!) };
}
