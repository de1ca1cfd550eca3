// Which Node runs the suite: printed in every run, and checked when a runner asks for a version
// (scripts/test-node22.mjs sets SCHOLARLY_METRICS_EXPECT_NODE=22).
import { expect, test } from 'vitest';

test(`runs on Node ${process.version}`, () => {
  console.log(`test workers run on Node ${process.version} (${process.execPath})`);
  const expected = process.env.SCHOLARLY_METRICS_EXPECT_NODE;
  const major = process.versions.node.split('.')[0];
  if (expected !== undefined) expect(major).toBe(expected);
  expect(Number(major)).toBeGreaterThanOrEqual(22);
});
