/**
 * What the running test leaves behind (child processes, tmux servers, scratch folders), undone after
 * it by test/helpers/setup.ts, a setup file and so run for every test file. A hook registered by a
 * helper module would serve only the first file of each worker: the `node` project shares modules
 * between files.
 */
const pending: Array<() => void> = [];

/** Runs `cleanup` once the running test has ended (or, outside a test, after the next one). */
export function afterThisTest(cleanup: () => void): void {
  pending.push(cleanup);
}

/** Runs the pending cleanups, the most recent first, as vitest runs hooks. */
export function runCleanups(): void {
  for (const cleanup of pending.splice(0).reverse()) cleanup();
}
