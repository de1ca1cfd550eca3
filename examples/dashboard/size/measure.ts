/**
 * What the dashboard's first load weighs, with the SDK and with the hand-written fetch layer of
 * plain-fetch.ts in its place: the entry chunk and the chunks it imports statically, each gzipped at
 * level 9 (the chunks behind `import()` load only when a call needs them, and count in the whole).
 *
 *   npm run build && npx node examples/dashboard/size/measure.ts [--json]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { dashboardConfig } from '../vite.config.ts';

const plainFetch = fileURLToPath(new URL('./plain-fetch.ts', import.meta.url));

async function measure(withSdk: boolean): Promise<{ firstLoad: number; all: number }> {
  const outDir = await mkdtemp(join(tmpdir(), 'dashboard-size-'));
  try {
    await build({
      ...dashboardConfig({ api: 'http://127.0.0.1:1', events: 'http://127.0.0.1:1', apiKey: 'unused' }),
      configFile: false,
      mode: 'production',
      logLevel: 'error',
      define: { 'process.env.NODE_ENV': '"production"' },
      resolve: withSdk ? {} : { alias: [{ find: /^scholarly-metrics(\/query)?$/, replacement: plainFetch }] },
      build: { outDir, manifest: true, chunkSizeWarningLimit: 2_000 },
    });
    const manifest: Manifest = JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8'));
    const size = async (file: string) => gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;
    const firstLoad = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key]!;
      if (firstLoad.has(chunk.file)) return;
      firstLoad.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
    const js = [...new Set(Object.values(manifest).map((chunk) => chunk.file))].filter((f) =>
      f.endsWith('.js'),
    );
    const sum = async (files: Iterable<string>) =>
      (await Promise.all([...files].filter((f) => f.endsWith('.js')).map(size))).reduce((a, b) => a + b, 0);
    return { firstLoad: await sum(firstLoad), all: await sum(js) };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
const sdk = await measure(true);
const plain = await measure(false);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ sdk, plain }));
} else {
  console.log(`with the SDK:        first load ${kB(sdk.firstLoad)}, all JS ${kB(sdk.all)}`);
  console.log(`plain fetch instead: first load ${kB(plain.firstLoad)}, all JS ${kB(plain.all)}`);
  console.log(
    `the SDK adds:        first load ${kB(sdk.firstLoad - plain.firstLoad)}, all JS ${kB(sdk.all - plain.all)}`,
  );
}
