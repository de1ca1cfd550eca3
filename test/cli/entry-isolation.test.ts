/**
 * The command line loads from its bin alone: no entry of the library reaches src/cli or the packages
 * only the command uses, even through a dynamic import. (scripts/check-package.mjs checks the same
 * in the built tarball.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, staticGraph } from '../testing/import-graph.js';

const cliOnly = /^(commander|csv-stringify|csv-parse|asciichart|string-width)(\/|$)/;

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
      'string-width',
    ]);
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('the bin starts without the packages of tables, charts and DOI lists: loaded when used', () => {
    // Most of a long harvest's start-up was theirs (string-width, the segmenter, locale data).
    const { files, external } = staticGraph('src/cli/index.ts');
    expect(external.filter((name) => cliOnly.test(name))).toEqual(['commander']);
    for (const file of ['table', 'width', 'chart']) expect(files).not.toContain(`src/cli/output/${file}.ts`);
    expect(files).not.toContain('src/cli/doi-input.ts');
  });
});
