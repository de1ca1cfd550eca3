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
};

export default defineConfig([
  { ...shared, format: 'esm', clean: true },
  // ky and p-retry ship ESM only. Bundling them into the CommonJS build keeps
  // `require('scholarly-metrics')` working on every Node without require(esm).
  { ...shared, format: 'cjs', noExternal: ['ky', 'p-retry', 'is-network-error'] },
]);
