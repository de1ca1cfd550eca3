/** What the fuzz test files share: the runs per property, a property runner that records figures. */
import fc from 'fast-check';
import { expect, vi } from 'vitest';
import { reportFigures } from './harness.js';

export const numRuns = 10_000;

/**
 * Sets up one fuzz test file: its test timeout, and the figures it prints under `name`. Call it at the
 * top of the file: files share modules, so nothing here may run only once for all of them.
 */
export function useFuzz(name: string) {
  // 10,000 runs of a whole client call take a few seconds; on a busy CI machine, several times that.
  vi.setConfig({ testTimeout: 90_000 });
  const figures: Array<Record<string, unknown>> = [];
  reportFigures(name, () => figures);

  /** Runs a property like `fc.assert`, and records how many runs it made and how long they took. */
  async function fuzz(
    target: string,
    property: fc.IAsyncProperty<never> | fc.IProperty<never>,
    runs = numRuns,
  ) {
    const started = performance.now();
    const details = await fc.check(property as fc.IAsyncProperty<never>, { numRuns: runs });
    if (details.failed) {
      throw new Error(fc.defaultReportMessage(details) ?? `${target}: property failed`, {
        cause: details.errorInstance,
      });
    }
    figures.push({ target, runs: details.numRuns, 'time (ms)': Math.round(performance.now() - started) });
    expect(details.numRuns).toBe(runs);
  }

  return { figures, fuzz };
}

/** `value` as JSON, or text that is not JSON when it cannot be written as such. */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return '{';
  }
}
