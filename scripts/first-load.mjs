// The client's first load in a browser (part of `npm run size`; `npm run bench` reads `--json`): an app
// that imports MetricClient and makes one call, bundled by esbuild as a browser app is (bundle,
// code splitting, ESM, minified, platform browser, every dependency in). What the page must fetch
// before the call can start is the entry chunk and the chunks it imports statically, each gzipped
// at level 9; the chunks behind `import()` load only when a call needs them, and count in the whole.
//
//   node scripts/first-load.mjs          prints both; fails when the first load is past its budget
//   node scripts/first-load.mjs --json   prints them as JSON, for bench/size.ts
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const distDir = process.env.BENCH_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * In bytes (a kB is 1,000, as size-limit counts). The whole client's budget is size-limit's
 * (scripts/size-limit.config.mjs): split this way, each chunk gzipped alone, it weighs more.
 */
export const budgets = { firstLoad: 24_500 };

const APP = `import { MetricClient } from 'scholarly-metrics';

const client = new MetricClient({ apiKey: 'a key' });
client.journals.get(1).then((journal) => console.log(journal.name));
`;

/**
 * The app in `work` bundled as a browser app is, the package by its name from the build under test
 * and its dependencies from the repository. Both are links inside the app's folder, kept as links:
 * every path the bundler sees, and so every chunk's hashed name, is the same wherever the repository
 * is checked out.
 */
function bundleApp(work) {
  writeFileSync(join(work, 'app.js'), APP);
  mkdirSync(join(work, 'out'));
  symlinkSync(distDir, join(work, 'package'), 'dir');
  symlinkSync(fileURLToPath(new URL('../node_modules/', import.meta.url)), join(work, 'node_modules'), 'dir');
  return build({
    entryPoints: [join(work, 'app.js')],
    absWorkingDir: work,
    outdir: join(work, 'out'),
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'error',
    preserveSymlinks: true,
    plugins: [
      {
        name: 'the-built-package',
        setup(b) {
          b.onResolve({ filter: /^scholarly-metrics$/ }, () => ({ path: join(work, 'package', 'index.js') }));
        },
      },
    ],
  });
}

/** Bundles the app; resolves to the gzipped sizes of its first load and of everything it can load. */
export async function measureFirstLoad() {
  const work = mkdtempSync(join(tmpdir(), 'scholarly-metrics-first-load-'));
  try {
    const result = await bundleApp(work);
    const key = (path) => relative(work, path).replaceAll('\\', '/');
    const gzipped = new Map(
      result.outputFiles.map((file) => [key(file.path), gzipSync(file.contents, { level: 9 }).length]),
    );
    const outputs = result.metafile.outputs;
    const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint === 'app.js');
    const reach = (kinds) => {
      const seen = new Set();
      const visit = (path) => {
        if (seen.has(path)) return;
        seen.add(path);
        for (const link of outputs[path].imports) if (kinds.includes(link.kind)) visit(link.path);
      };
      visit(entry);
      return [...seen];
    };
    const sum = (paths) => paths.reduce((total, path) => total + gzipped.get(path), 0);
    const first = reach(['import-statement']);
    const all = reach(['import-statement', 'dynamic-import']);
    return {
      firstLoad: { bytes: sum(first), chunks: first.length },
      whole: { bytes: sum(all), chunks: all.length },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const measured = await measureFirstLoad();
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ ...measured, budgets })}\n`);
  } else {
    const kb = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;
    const { firstLoad, whole } = measured;
    const ok = firstLoad.bytes <= budgets.firstLoad;
    process.stdout.write(
      `  ${ok ? '✓' : '✗'} esbuild, first load: the entry chunk and its static imports ` +
        `(${firstLoad.chunks} chunks, each gzip -9): ${kb(firstLoad.bytes)} of ${kb(budgets.firstLoad)}\n` +
        `    with its import() chunks (${whole.chunks} chunks): ${kb(whole.bytes)}\n`,
    );
    if (!ok) process.exit(1);
  }
}
