// Size budgets (`npm run size`), measured the way a browser app gets the SDK: its bundler (here
// rolldown, through @size-limit/preset-small-lib) takes the BUILT ESM entry (dist/, or the build
// named by BENCH_DIST), bundles every dependency in (ky, p-retry, zod: nothing is external), targets
// the browser platform, minifies, and the result is gzipped. The imports are what an app writes.
// `npm run bench` reads these figures from `size-limit --json` for BENCHMARKS.md.
//
// The client's budget covers everything it can load: the chunks it imports on demand (zod's runtime
// and its issue wording once a body is left to zod, the getMany pool) count as well as its first
// load, which is measured on its own beside it. These limits guard against growth; the design's
// target for the whole client is stated, and judged, in BENCHMARKS.md §5, which says whether the stack
// meets it, by how much, and where the bytes go.
//
// scholarly-metrics/webhooks is for servers that receive events and send no request: its bundle must
// hold none of the client. A rolldown plugin checks the modules that went into each bundle, so the
// check fails `npm run size` whatever the sizes; the client's own entry proves the check still
// recognises what it looks for.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const distDir = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));
const dist = (file) => join(distDir, file);

/** The built file that defines MetricClient: tsup may move it between chunks from one build to the next. */
function clientFile() {
  // The bin (dist/cli.js and dist/cli-chunks/, a build of its own, not read here) carries a copy of
  // the client: it is no library entry.
  const files = readdirSync(distDir).filter((file) => file.endsWith('.js') && file !== 'cli.js');
  const defining = files.filter((file) =>
    /\b(class MetricClient|MetricClient = class)\b/.test(readFileSync(dist(file), 'utf8')),
  );
  if (defining.length !== 1) throw new Error(`expected one file of ${distDir} to define MetricClient`);
  return dist(defining[0]);
}

const client = clientFile();
/** What only the client uses: its own module and the libraries it sends requests with. */
const clientParts = [
  { name: 'the client (MetricClient)', matches: (id) => id === client },
  ...['ky', 'p-retry'].map((name) => ({
    name,
    matches: (id) => id.replaceAll('\\', '/').includes(`/node_modules/${name}/`),
  })),
];

/** TanStack Query: the query entry uses its types alone, so no bundle may contain it. */
const tanstack = [
  {
    name: '@tanstack/query-core',
    matches: (id) => id.replaceAll('\\', '/').includes('/node_modules/@tanstack/'),
  },
];

/** Fails the bundle when one of `forbidden` went into it, or one of `required` did not. */
const modulesCheck = (label, { required = [], forbidden = [] }) => ({
  name: 'scholarly-metrics-modules-check',
  generateBundle(_options, bundle) {
    const ids = Object.values(bundle).flatMap((chunk) =>
      chunk.type === 'chunk' ? (chunk.moduleIds ?? Object.keys(chunk.modules)) : [],
    );
    for (const part of forbidden) {
      const found = ids.find(part.matches);
      if (found) this.error(`${label} must not contain ${part.name}, but bundles ${found}`);
    }
    for (const part of required) {
      if (!ids.some(part.matches))
        this.error(`${label}: ${part.name} is missing, so the webhooks check is stale`);
    }
  },
});

/** rolldown options size-limit leaves implicit, made explicit: a browser bundle; plus the module check. */
const browserBundle = (check) => (config) => ({
  ...config,
  platform: 'browser',
  plugins: [...[config.plugins ?? []].flat(), ...(check ? [check] : [])],
});

const entry = (name, file, imports, limit, { check, ...extra } = {}) => ({
  name,
  path: dist(file),
  import: imports,
  ...(limit && { limit }),
  gzip: true,
  modifyRolldownConfig: browserBundle(check),
  ...extra,
});

export default [
  entry(
    'the whole client: import { MetricClient }, ky, p-retry and zod bundled, on-demand chunks included',
    'index.js',
    '{ MetricClient }',
    // A guard against growth just above the current bundle; the design's target for it is judged
    // in BENCHMARKS.md §5, which says where the bytes go.
    '42.4 kB',
    { check: modulesCheck('the client', { required: clientParts }) },
  ),
  entry(
    'the client’s first load: import { MetricClient }, on-demand chunks excluded',
    'index.js',
    '{ MetricClient }',
    // scripts/first-load.mjs holds the first load to BENCHMARKS §5's first-load budget, measured its own
    // way (esbuild, chunk by chunk).
    '23.8 kB',
    // Only the entry chunk and its static imports: chunks loaded by `import()` are not counted.
    { entry: ['index'] },
  ),
  // scholarly-metrics/query beside the client, as an app imports both: the entry itself (no TanStack
  // package, its types only; the API table it reads is the client's) with the webhook parser's checks
  // that `follow` runs on each relayed event. A guard just above it; BENCHMARKS.md judges the target.
  {
    ...entry(
      'the client with scholarly-metrics/query: import { MetricClient } and { metricQueries }',
      'index.js',
      '{ MetricClient }',
      '44.15 kB',
      { check: modulesCheck('scholarly-metrics/query', { forbidden: tanstack }) },
    ),
    path: [dist('index.js'), dist('query.js')],
    import: { [dist('index.js')]: '{ MetricClient }', [dist('query.js')]: '{ metricQueries }' },
  },
  entry(
    'webhooks alone: import * from scholarly-metrics/webhooks (no ky, no client)',
    'webhooks.js',
    '*',
    '7.6 kB',
    { check: modulesCheck('scholarly-metrics/webhooks', { forbidden: clientParts }) },
  ),
];
