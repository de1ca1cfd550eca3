/**
 * What a documented test file gets for `from 'vitest'` when the doc test runs it: `test`, `it` and
 * the hooks only collect, and `runCollected` then runs them in vitest's order (beforeAll, then each
 * test between beforeEach and afterEach, then afterAll). `expect` and `vi` are vitest's own, so the
 * snippet's assertions are real ones.
 */
export { expect, vi } from 'vitest';

type Fn = () => unknown;

interface Collected {
  tests: Array<{ name: string; fn: Fn }>;
  beforeAll: Fn[];
  afterAll: Fn[];
  beforeEach: Fn[];
  afterEach: Fn[];
}

const fresh = (): Collected => ({ tests: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] });
let collected = fresh();

export function test(name: string, fn: Fn): void {
  collected.tests.push({ name, fn });
}
export const it = test;
export function describe(_name: string, fn: () => void): void {
  fn();
}
export const beforeAll = (fn: Fn): void => void collected.beforeAll.push(fn);
export const afterAll = (fn: Fn): void => void collected.afterAll.push(fn);
export const beforeEach = (fn: Fn): void => void collected.beforeEach.push(fn);
export const afterEach = (fn: Fn): void => void collected.afterEach.push(fn);

/** Forgets whatever an earlier snippet declared (one that threw while it was imported). */
export function forgetCollected(): void {
  collected = fresh();
}

/** Runs what the last imported snippet declared, and forgets it. Returns the names of its tests. */
export async function runCollected(): Promise<string[]> {
  const { tests, beforeAll: before, afterAll: after, beforeEach: each, afterEach: afterEvery } = collected;
  collected = fresh();
  for (const hook of before) await hook();
  try {
    for (const { fn } of tests) {
      for (const hook of each) await hook();
      try {
        await fn();
      } finally {
        for (const hook of afterEvery) await hook();
      }
    }
  } finally {
    for (const hook of after) await hook();
  }
  return tests.map((entry) => entry.name);
}
