/**
 * The command line loads from its bin alone: no entry of the library reaches src/cli or the packages
 * only the command uses, even through a dynamic import. (scripts/check-package.mjs checks the same
 * in the built tarball.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPackagePattern as cliOnly } from '../../scripts/cli-packages.mjs';
import { resolveLocal, root, specifiersIn, staticGraph } from '../testing/import-graph.js';

describe('the command line is isolated from the library', () => {
  it.each(['src/index.ts', 'src/webhooks/index.ts', 'src/testing/index.ts'])(
    '%s never reaches src/cli or its packages',
    (entry) => {
      const { files, external } = staticGraph(entry, true);
      expect(files.length).toBeGreaterThan(1);
      expect(files.filter((file) => file.startsWith('src/cli/'))).toEqual([]);
      expect(external.filter((name) => cliOnly.test(name))).toEqual([]);
    },
  );

  it('the bin reaches them, and starts with a shebang', () => {
    const bin = join(root, 'src/cli/index.ts');
    const { files, external } = staticGraph('src/cli/index.ts', true);
    expect(files).toContain('src/cli/program.ts');
    expect(external.filter((name) => cliOnly.test(name)).sort()).toEqual([
      'asciichart',
      'commander',
      'csv-parse/sync',
      'hyparquet-writer',
      'string-width',
    ]);
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('the bin starts without the packages of tables, charts and DOI lists: loaded when used', () => {
    // Most of a long harvest's start-up was theirs (string-width, the segmenter, locale data). The
    // bin's entry loads main.ts at once, by import() only to keep Node's warnings of the load quiet.
    expect(readFileSync(join(root, 'src/cli/index.ts'), 'utf8')).toContain("import('./main.js')");
    const { files, external } = staticGraph('src/cli/main.ts');
    expect(external.filter((name) => cliOnly.test(name))).toEqual(['commander']);
    for (const file of ['table', 'width', 'chart']) expect(files).not.toContain(`src/cli/output/${file}.ts`);
    expect(files).not.toContain('src/cli/doi-input.ts');
  });
});

/** What src/cli may import outside itself, by path from the repository's root. */
const publicSources = new Set([
  // The package's public entries, as tsup builds them: scholarly-metrics, /testing, /redis, /webhooks.
  'src/index.ts',
  'src/testing/index.ts',
  'src/redis/index.ts',
  'src/webhooks/index.ts',
  // Its published files: scholarly-metrics/package.json (the version), scholarly-metrics/openapi.json (the fields).
  'package.json',
  'openapi/openapi.json',
  // The API table, which names each command's endpoint.
  'src/api/endpoints.ts',
  // The guards the SDK and the command line share by design: the one class of characters a terminal
  // acts on, and the one redactor (what the command line writes to stderr is cut as the SDK's logs are).
  'src/core/escape.ts',
  'src/core/redact.ts',
]);

/** The SDK's bounds and rules, imported where they are declared by the one file that says why. */
const boundSources = new Set([
  'src/core/options/request.ts',
  'src/resources/get-many.ts',
  'src/core/retry.ts',
]);

/** The files under src/ (or the package's root) each file of src/cli imports from outside src/cli. */
function importsOutsideCli(): { file: string; target: string }[] {
  const folder = join(root, 'src/cli');
  const files = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return files.flatMap((file) => {
    const path = join(folder, file);
    return specifiersIn(readFileSync(path, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({
        file: relative(root, path),
        target: relative(root, resolveLocal(path, specifier)),
      }))
      .filter(({ target }) => !target.startsWith(`src${sep}cli${sep}`));
  });
}

describe('the command line uses the SDK through its public entries', () => {
  it('finds what it imports from outside src/cli (the check below could fail)', () => {
    const targets = new Set(importsOutsideCli().map(({ target }) => target));
    for (const expected of ['src/index.ts', 'src/testing/index.ts', 'src/redis/index.ts', 'package.json'])
      expect(targets).toContain(expected);
    expect(
      specifiersIn("import type { A } from '../core/a.js';\nconst b = await import('../schemas/b.js');"),
    ).toEqual(['../core/a.js', '../schemas/b.js']);
  });

  it('imports nothing else of the SDK: no core, schemas, cache or testing internals', () => {
    const outside = importsOutsideCli().filter(
      ({ file, target }) =>
        !publicSources.has(target) && !(file === 'src/cli/sdk-bounds.ts' && boundSources.has(target)),
    );
    expect(outside).toEqual([]);
  });

  it('starts without the client: the entry loads when a command runs, not with --version', () => {
    const { files } = staticGraph('src/cli/index.ts');
    for (const file of ['src/index.ts', 'src/client.ts', 'src/testing/index.ts', 'src/redis/index.ts'])
      expect(files).not.toContain(file);
    expect(staticGraph('src/cli/index.ts', true).files).toContain('src/client.ts');
  });
});
