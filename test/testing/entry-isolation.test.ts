import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, root, staticGraph } from './import-graph.js';

const adapters = [
  'cli.ts',
  'server.ts',
  'msw.ts',
  'msw-module.ts',
  'msw-module-cjs.ts',
  'node-http.ts',
  'node-http-cjs.ts',
  'index.ts',
];

describe('module boundaries of scholarly-metrics/testing', () => {
  it('the core imports no node: module, statically or dynamically', () => {
    const dir = join(root, 'src/testing');
    const core = [
      ...readdirSync(dir).filter((f) => f.endsWith('.ts') && !adapters.includes(f)),
      ...readdirSync(join(dir, 'data')).map((f) => `data/${f}`),
    ];
    expect(core.length).toBeGreaterThan(15);
    for (const file of core) {
      const { static: s, dynamic: d } = importsOf(join(dir, file));
      expect(
        [...s, ...d].filter((spec) => !spec.startsWith('.')),
        file,
      ).toEqual([]);
    }
  });

  it('the testing entry loads msw only on demand, and no node: module, so setupWorker pages can import it', () => {
    // msw is an optional peer: a static import would make the whole entry fail where it is missing.
    expect(staticGraph('src/testing/index.ts').external).toEqual([]);
    // Loaded on first use: msw by mockHandlers, node:http by startMockServer (by a name no bundler
    // follows). zod comes with the API table's response checks, loaded only when a body is validated,
    // which the mock never does.
    expect(staticGraph('src/testing/index.ts', true).external).toEqual(['msw', 'zod/mini']);
  });

  it('bundles for a browser page with esbuild, which refuses a node: module there', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: "export * from './src/testing/index.ts';", resolveDir: root, loader: 'ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      external: ['msw', 'msw/*'],
    });
    expect(result.errors).toEqual([]);
  });

  it('the bin and the server never load msw', () => {
    // The bin runs a command of yours (`-- <command>`): it spawns it, with the OS's signal numbers.
    expect(staticGraph('src/testing/cli.ts').external).toEqual([
      'node:child_process',
      'node:os',
      'node:util',
    ]);
    expect(staticGraph('src/testing/server.ts').external).toEqual([]);
    // node:http by a name (`import(name)`), so that a browser bundle has nothing to resolve; the
    // CommonJS build's stand-in imports it by its literal name, which the build makes a `require`.
    expect(importsOf(join(root, 'src/testing/server.ts')).dynamic).toEqual([]);
    expect(importsOf(join(root, 'src/testing/node-http.ts')).dynamic).toEqual([]);
    expect(importsOf(join(root, 'src/testing/node-http-cjs.ts')).dynamic).toEqual(['node:http']);
  });

  it('the bin starts with a shebang', () => {
    expect(readFileSync(join(root, 'src/testing/cli.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(
      true,
    );
  });

  it('scholarly-metrics and scholarly-metrics/webhooks never load msw or the mock, even lazily', () => {
    for (const entry of ['src/index.ts', 'src/webhooks/index.ts']) {
      const { files, external } = staticGraph(entry, true);
      expect(files.length, entry).toBeGreaterThan(1);
      expect(
        files.filter((f) => f.startsWith('src/testing/')),
        entry,
      ).toEqual([]);
      expect(
        external.filter((spec) => spec === 'msw' || spec.startsWith('msw/')),
        entry,
      ).toEqual([]);
    }
  });
});
