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
  'test/api/throwaway-endpoint.test.ts',
  'test/cli/telemetry.test.ts',
  'test/core/on-demand.test.ts',
  'test/telemetry/off.test.ts',
  'test/telemetry/offline-load.test.ts',
  'test/testing/exposed-warning.test.ts',
];

/**
 * Files that change what the whole process shares, and so run with modules of their own: the
 * dashboard's build runs Vite and its plugins in the worker, which leaves zod's global configuration
 * speaking English, and every later file's validation messages with it.
 */
export const changesProcessState = ['test/examples/dashboard.test.ts'];

/**
 * Files whose verdict does not depend on the Node that runs them: the TypeScript compiler's check of
 * the documentation's blocks. The Node 22 run (scripts/test-node22.mjs) leaves them out; the Node 24
 * run gives their verdict.
 */
export const sameOnEveryNode = ['test/docs/snippets-typecheck.test.ts'];

/** Every file the `node-isolated` project runs. */
export const isolated = [...replacesModules, ...changesProcessState];

/**
 * Files that spend most of their time waiting on worker processes and Redis windows. Vitest starts
 * the longest files first only once it has timed them; in a fresh clone it goes by file size, and
 * these small files started last and ran alone at the end.
 */
export const startFirst = ['test/redis/processes-node-redis.test.ts', 'test/redis/processes-ioredis.test.ts'];

/** Vitest's own order, with {@link startFirst} moved to the front. */
export class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (spec: TestSpecification) => startFirst.some((file) => spec.moduleId.endsWith(file));
    return [...sorted.filter(first), ...sorted.filter((spec) => !first(spec))];
  }
}
