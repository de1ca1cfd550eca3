/**
 * How vitest.config.ts lays out the Node suite: which files run isolated, and which start first.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that replace a module (vi.mock, vi.doMock). The `node` project shares each worker's
 * modules between files, where a replaced module would leak into the next file: these run in the
 * `node-isolated` project instead, each with modules of its own.
 */
export const replacesModules = [
  'test/cli/telemetry.test.ts',
  'test/telemetry/off.test.ts',
  'test/testing/exposed-warning.test.ts',
];

/**
 * Files that change what the whole process shares, and so run with modules of their own: the
 * dashboard's build runs Vite and its plugins in the worker, which leaves zod's global configuration
 * speaking English, and every later file's validation messages with it.
 */
export const changesProcessState = ['test/examples/dashboard.test.ts'];

/** Every file the `node-isolated` project runs. */
export const isolated = [...replacesModules, ...changesProcessState];

/**
 * The longest files, longest first (their times in a fresh clone's `npm test`, 15 s to 42 s). Vitest
 * starts the longest files first only once it has timed them; in a fresh clone it goes by file size,
 * and these started last and ran alone at the end (the whole suite waiting 20 to 30 s on one or two
 * of them). The processes files mostly wait on worker processes and Redis windows.
 */
export const startFirst = [
  'test/reliability/load.test.ts',
  'test/redis/processes-node-redis.test.ts',
  'test/redis/processes-ioredis.test.ts',
  'test/cli/walk.test.ts',
  'test/docs/snippets-typecheck.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/cli/redis.test.ts',
  'test/cli/commands/sync.test.ts',
  'test/reliability/key-encodings.test.ts',
  'test/redis/fleet.test.ts',
  'test/docs/cli-commands.test.ts',
  'test/cli/formats-parquet-memory.test.ts',
  'test/cli/completion-zsh.test.ts',
  'test/redis/cluster.test.ts',
  'test/cli/telemetry-exit.test.ts',
];

/** Vitest's own order, with {@link startFirst} moved to the front in its order. */
export class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = startFirst.findIndex((file) => spec.moduleId.replaceAll('\\', '/').endsWith(file));
      return at === -1 ? startFirst.length : at;
    };
    // A stable sort: the files not listed keep vitest's order behind the listed ones.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
