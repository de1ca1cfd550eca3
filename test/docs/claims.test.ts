/**
 * Lists in the docs that claim to be complete: the README's table of error classes, and the pages
 * that name the package's entry points. Each must keep up with what the package exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import { read, root } from './markdown.js';

/** The README's "Errors" section, up to the next heading. */
function errorsSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Errors\n');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

/** The entry points users import, as `scholarly-metrics/<name>`, from package.json's exports. */
function entryPoints(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(manifest.exports as Record<string, unknown>)
    .filter((key) => !key.endsWith('.json'))
    .map((key) => (key === '.' ? 'scholarly-metrics' : `scholarly-metrics/${key.slice(2)}`));
}

describe('lists the docs present as complete', () => {
  it('README.md: the Errors table has a row for every error class the package exports', () => {
    const rows = errorsSection()
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const errorClasses = Object.entries(sdk)
      .filter(([name, value]) => name !== 'default' && typeof value === 'function')
      .filter(([, value]) => (value as { prototype?: unknown }).prototype instanceof sdk.MetricError)
      .map(([name]) => name);
    expect(errorClasses.length).toBeGreaterThan(10);
    const missing = errorClasses.filter((name) => !rows.some((row) => row.includes(`\`${name}\``)));
    expect(missing, 'classes without a row in the Errors table').toEqual([]);
  });

  for (const page of ['docs/versioning.md', 'docs/runtimes.md']) {
    it(`${page}: names every entry point of package.json`, () => {
      const text = read(page);
      const missing = entryPoints().filter((entry) => !text.includes(`\`${entry}\``));
      expect(missing).toEqual([]);
    });
  }
});
