// Every value an entry's declarations export (a class, a function, a constant, as the committed API
// report lists them) is there when the entry runs: a type-only export that the declaration bundler
// writes as a class would type-check `instanceof Journals` and throw at run time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../testing/import-graph.js';

const entries = {
  index: '../../src/index.js',
  webhooks: '../../src/webhooks/index.js',
  redis: '../../src/redis/index.js',
  query: '../../src/query/index.js',
  testing: '../../src/testing/index.js',
} as const;

/** The names the API report of `entry` declares as values. */
function declaredValues(entry: string): string[] {
  const report = readFileSync(join(root, 'api-report', `${entry}.api.md`), 'utf8');
  const declared = /^export (?:declare )?(?:abstract )?(?:class|function|const|enum) (\w+)/gm;
  const reexported = /^export \{ (\w+) \}/gm;
  return [...report.matchAll(declared), ...report.matchAll(reexported)].map((match) => match[1]!);
}

describe('the values each entry declares', () => {
  it.each(Object.entries(entries))('%s: each is exported when it runs', async (entry, path) => {
    const names = declaredValues(entry);
    expect(names.length).toBeGreaterThan(0);
    const module = (await import(path)) as Record<string, unknown>;
    expect(names.filter((name) => module[name] === undefined)).toEqual([]);
  });
});
