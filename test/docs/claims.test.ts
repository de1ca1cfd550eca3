/**
 * Lists in the docs that claim to be complete: the README's table of error classes, the pages that
 * name the package's entry points, and the command line's OpenTelemetry install line. Each must keep
 * up with what the package exports or loads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { telemetryPackages } from '../../src/cli/telemetry.js';
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

  it("docs/observability.md: the command line's install line names every package it loads", () => {
    const text = read('docs/observability.md');
    const start = text.indexOf('npm install', text.indexOf('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'));
    const line = text.slice(start, text.indexOf('\nOTEL_', start)).replaceAll('\\\n', ' ');
    const missing = telemetryPackages.filter((name) => !line.split(/\s+/).includes(name));
    expect(missing).toEqual([]);
  });
});
