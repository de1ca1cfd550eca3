// `npm run bench`: builds dist/ if it is older than the sources, copies it aside (other work in the same tree may
// rebuild dist/ meanwhile), runs every benchmark in a process of its own, one after the other, saves their results
// as JSON and writes BENCHMARKS.md from them.
//   npm run bench -- --report-only      BENCHMARKS.md again from the saved results, nothing measured
//   npm run bench -- --only cache,cli   these (keys of the results) measured again, the others kept
//   BENCH_QUICK=1 npm run bench         few rounds, small sizes: the results and the Markdown go to the cache
//                                       folder, never to BENCHMARKS.md
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { dist, inChild, root } from './lib.js';
import { benchmarks, command, machine, markdown, type Results } from './report.js';

const quick = process.env.BENCH_QUICK === '1';
const cache = join(root, 'node_modules/.cache/scholarly-metrics-bench');
const saved = join(cache, quick ? 'results-quick.json' : 'results.json');
const output = quick ? join(cache, 'BENCHMARKS-quick.md') : join(root, 'BENCHMARKS.md');

const mtime = (path: string) => (fs.existsSync(path) ? fs.statSync(path).mtimeMs : 0);
const newest = (path: string): number =>
  fs.statSync(path).isDirectory()
    ? Math.max(0, ...fs.readdirSync(path).map((name) => newest(join(path, name))))
    : mtime(path);

/** dist/ is what is measured: rebuilt when any source is newer than it. */
function ensureBuild(): void {
  const built = Math.min(...['index.js', 'index.cjs', 'testing.js'].map((file) => mtime(join(dist, file))));
  const sources = Math.max(...['src', 'package.json', 'tsup.config.ts'].map((p) => newest(join(root, p))));
  if (built > sources) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const options = { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' } as const;
  if (spawnSync('npm', ['run', 'build'], options).status !== 0) throw new Error('npm run build failed');
}

/**
 * A private copy of dist/ with every chunk its files import (`npm test` elsewhere cleans dist/ first), and
 * beside it the package.json an install has: its `type` and `sideEffects` are read from there.
 */
function snapshot(): string {
  fs.mkdirSync(cache, { recursive: true });
  fs.copyFileSync(join(root, 'package.json'), join(cache, 'package.json'));
  const [copy, entries] = [join(cache, 'dist'), ['index.js', 'index.cjs', 'testing.js', 'webhooks.js']];
  const imports = /(?:from |import\(|require\()["'](\.\/[^"']+)["']/g;
  const present = (file: string) => fs.existsSync(join(copy, file));
  const chunksOf = (file: string) =>
    [...fs.readFileSync(join(copy, file), 'utf8').matchAll(imports)].map((m) => m[1]!);
  const scripts = () => fs.readdirSync(copy).filter((file) => /\.c?js$/.test(file));
  const complete = () => [...entries, ...scripts().flatMap(chunksOf)].every(present);
  for (let attempt = 1; attempt <= 5; attempt++) {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(dist, copy, { recursive: true });
    if (complete()) return copy;
    spawnSync(process.execPath, ['-e', 'setTimeout(() => {}, 3000)']);
  }
  throw new Error('dist/ kept changing while it was copied: run npm run bench again');
}

function commit(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'unknown';
  const changed = ' (src/ with uncommitted changes)';
  const dirty = git('status', '--porcelain', '--', 'src').stdout.trim() ? changed : '';
  return head.stdout.trim() + dirty + (quick ? ' (BENCH_QUICK: few rounds, small sizes)' : '');
}

async function measure(only: string[] | undefined): Promise<Results> {
  const started = performance.now();
  const results = only ? JSON.parse(fs.readFileSync(saved, 'utf8')) : {};
  if (!process.env.BENCH_DIST) {
    ensureBuild();
    process.env.BENCH_DIST = snapshot();
  }
  const loadBefore = loadavg();
  for (const { id, key, file } of benchmarks.map((b) => b.about)) {
    if (only && !only.includes(key)) continue;
    const at = performance.now();
    process.stdout.write(`${id}. ${key}… `);
    results[key] = await inChild(file);
    console.log(`${((performance.now() - at) / 1000).toFixed(0)} s`);
  }
  const now = machine(loadBefore, loadavg(), (performance.now() - started) / 60_000, commit());
  if (!only) return { ...results, machine: now };
  const ids = benchmarks.filter((b) => only.includes(b.about.key)).map((b) => b.about.id);
  const { again = [], ...full } = results.machine;
  // A run again of the same sections replaces the one before: its figures are gone.
  const kept = again.filter((run: { ids: string[] }) => !run.ids.every((id) => ids.includes(id)));
  return { ...results, machine: { ...full, again: [...kept, { ...now, ids }] } };
}

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1]?.split(',') : undefined;
const reportOnly = process.argv.includes('--report-only');
if ((only || reportOnly) && !fs.existsSync(saved)) {
  console.error(
    `${saved} is missing: --only and --report-only need the results of a full \`${command}\` first`,
  );
  process.exit(2);
}
fs.mkdirSync(cache, { recursive: true });
const results: Results = reportOnly ? JSON.parse(fs.readFileSync(saved, 'utf8')) : await measure(only);
if (!reportOnly) fs.writeFileSync(saved, `${JSON.stringify(results, null, 1)}\n`);
const text = markdown(results);
fs.writeFileSync(output, text);
console.log(`\n${command}: wrote ${output} from ${saved}\n`);
console.log(text.slice(0, text.indexOf('\n## ', text.indexOf('## Results')) + 1 || undefined));
