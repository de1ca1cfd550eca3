import { join } from 'node:path';
import { defineConfig, type Options, type Plugin } from 'tsup';
import { cliPackagePattern } from './scripts/cli-packages.mjs';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const entry = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  redis: 'src/redis/index.ts',
  query: 'src/query/index.ts',
  'mock-server-cli': 'src/testing/cli.ts',
};

/** The library's entries: the mock server's bin is run, never imported, so it has no CommonJS or types. */
const { 'mock-server-cli': _mockServerBin, ...libraryEntry } = entry;

const shared: Options = {
  entry,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  // `@internal` members (the resources' plumbing) stay out of the declarations users compile against.
  dts: { entry: libraryEntry, compilerOptions: { stripInternal: true } },
  treeshake: true,
  splitting: true,
  // Keep `node:http` as written (only the mock server and its CLI use Node built-ins): Deno and edge
  // bundlers know Node's built-ins by the `node:` prefix only.
  removeNodeProtocol: false,
  external: [/^node:/],
};

// The testing entry loads msw (optional, ESM only) with a top-level await, which CommonJS cannot
// express, and node:http by a name no bundler follows, which a CommonJS loader may have no `import()`
// for: the CommonJS build takes src/testing/msw-module-cjs.ts (msw required on first use) and
// node-http-cjs.ts (a literal import, made a deferred `require` below).
const commonJsMswModule: EsbuildPlugin = {
  name: 'commonjs-msw-module',
  setup(build) {
    build.onResolve({ filter: /^\.\/(msw-module|node-http)\.js$/ }, (args) => ({
      path: join(args.resolveDir, `${args.path.slice(2, -3)}-cjs.ts`),
    }));
  },
};

// A CommonJS loader may have no `import()` at all: Jest's, unless run with --experimental-vm-modules,
// throws on it, failing the cache, getMany and startMockServer. The CommonJS build loads its lazy chunks
// and Node's built-ins with a deferred `require` instead, a literal one that bundlers still follow.
// Only string specifiers change: the variable one of webhook telemetry stays an `import()`, which
// fails softly where it cannot run.
const requireLazyChunks: Plugin = {
  name: 'require-lazy-chunks',
  renderChunk(code, chunk) {
    if (!chunk.path.endsWith('.cjs')) return;
    const pattern = /\bimport\((["'])(\.\/[^"']+\.cjs|node:[^"']+)\1\)/g;
    return { code: code.replace(pattern, 'Promise.resolve().then(() => require($1$2$1))') };
  },
};

export default defineConfig([
  { ...shared, format: 'esm', clean: true },
  // ky and p-retry (and its is-network-error) ship ESM only. Bundling them into the CommonJS build keeps
  // `require('scholarly-metrics')` working on every Node without require(esm).
  {
    ...shared,
    entry: libraryEntry,
    format: 'cjs',
    noExternal: ['ky', 'p-retry', 'is-network-error'],
    esbuildPlugins: [commonJsMswModule],
    plugins: [requireLazyChunks],
  },
  // The `scholarly-metrics` bin: a build of its own, ESM only (a bin is run, never required), its
  // chunks in dist/cli-chunks/, shared with none of the library's entries, so that adding it changes
  // none of their files. Split like the library, it loads what a command uses when the command uses it
  // (the cache, telemetry, zod for a body the parsers leave to it, tables, charts, DOI lists).
  // The packages only the bin uses are bundled into it (they are devDependencies): an app that
  // installs the SDK installs none of them. scripts/check-package.mjs checks both.
  {
    entry: { cli: 'src/cli/index.ts' },
    format: 'esm',
    target: 'es2022',
    platform: 'node',
    sourcemap: true,
    treeshake: true,
    splitting: true,
    removeNodeProtocol: false,
    external: [/^node:/],
    noExternal: [cliPackagePattern],
    esbuildOptions(options) {
      options.chunkNames = 'cli-chunks/[name]-[hash]';
    },
  },
]);
