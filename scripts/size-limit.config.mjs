// Size budgets (`npm run size`), measured the way a browser app gets the SDK: its bundler (here
// rolldown, through @size-limit/preset-small-lib) takes the BUILT ESM entry (dist/), bundles every
// dependency in (p-retry, zod: nothing is external), targets the browser platform, minifies,
// and the result is gzipped. The imports are what an app writes.
//
// The client validates with parsers generated at build time (src/schemas/parsers.generated.ts) and
// loads zod/mini with the schemas in a separate chunk only to explain a refused body (a dynamic
// `import('./explain.js')`). So the client has two numbers: its initial load (the entry chunk and
// what it imports statically) and its total (the lazy explain chunk included).
import { fileURLToPath } from 'node:url';

const dist = (file) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

/** rolldown options size-limit leaves implicit, made explicit: a browser bundle. */
const browserBundle = (config) => ({ ...config, platform: 'browser' });

const check = (name, file, imports, limit, extra = {}) => ({
  name,
  path: dist(file),
  import: imports,
  limit,
  gzip: true,
  modifyRolldownConfig: browserBundle,
  ...extra,
});

export default [
  check(
    'client, initial load: import { MetricClient }, dependencies bundled, lazy zod explain chunk EXCLUDED',
    'index.js',
    '{ MetricClient }',
    // Tighter than the 20 kB on purpose: zod leaking into the first load (+6 kB) must fail.
    '12 kB',
    // Only the entry chunk and its static imports: the chunk loaded by `import()` is not counted.
    { entry: ['index'] },
  ),
  check(
    'the whole client, zod included: import { MetricClient } with the lazy zod/mini explain chunk',
    'index.js',
    '{ MetricClient }',
    '20 kB',
  ),
  check(
    'everything from the root entry, initial load: import * (lazy explain chunk excluded)',
    'index.js',
    '*',
    '14 kB',
    { entry: ['index'] },
  ),
  check(
    'webhooks alone: import { parseWebhookEvent, createWebhookHandler, … } from scholarly-metrics/webhooks',
    'webhooks.js',
    '*',
    '6 kB',
  ),
];
