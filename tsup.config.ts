import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  webhooks: 'src/webhooks/index.ts',
  testing: 'src/testing/index.ts',
  'mock-server-cli': 'src/testing/cli.ts',
};

const shared: Options = {
  entry,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  dts: true,
  treeshake: true,
  splitting: true,
  // Keep `node:http` as written (only the mock server and its CLI use Node built-ins): Deno and edge
  // bundlers know Node's built-ins by the `node:` prefix only.
  removeNodeProtocol: false,
  external: [/^node:/],
};

export default defineConfig([
  { ...shared, format: 'esm', clean: true },
  // p-retry (and its is-network-error) ship ESM only. Bundling them into the CommonJS build keeps
  // `require('scholarly-metrics')` working on every Node without require(esm).
  { ...shared, format: 'cjs', noExternal: ['p-retry', 'is-network-error'] },
]);
