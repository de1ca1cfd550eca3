/**
 * `npm run bench`: builds dist/ if it is older than the sources, copies it aside (other work in the
 * same tree may rebuild dist/ meanwhile), runs every benchmark in a process of its own, one after the
 * other, and writes BENCHMARKS.md with the figures, the machine and the command.
 */
import { fork, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BodyReadResult } from './body-read.js';
import type { CacheResult } from './cache.js';
import type { CliResult } from './cli.js';
import type { ColdStartResult } from './cold-start.js';
import { memory as memoryConfig } from './config.js';
import type { GetManyResult } from './get-many.js';
import { dist, root, tsxExecArgv } from './lib.js';
import type { MemoryContender, MemoryResult } from './memory.js';
import type { PagingResult } from './paging.js';
import type { QuotaResult } from './quota.js';
import type { RedisQuotaResult } from './redis-quota.js';
import { markdown, type Results } from './report.js';
import type { TelemetryResult } from './report-telemetry.js';
import type { RequestResult } from './request.js';
import type { CostResult } from './request-costs.js';
import { sizes } from './size.js';
import type { ValidationResult } from './validation.js';

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function oldest(paths: string[]): number {
  try {
    return Math.min(...paths.map((path) => statSync(path).mtimeMs));
  } catch {
    return 0; // missing
  }
}

/** dist/ is what is measured: rebuild it when any source is newer than it. */
function ensureBuild(): void {
  if (process.env.BENCH_DIST) return;
  const built = oldest(['index.js', 'index.cjs', 'testing.js'].map((file) => join(dist, file)));
  const sources = Math.max(
    ...['src', 'package.json', 'tsup.config.ts'].map((path) => newest(join(root, path))),
  );
  if (built > sources) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: platform() === 'win32',
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * A private copy of dist/ for the whole run: a build started elsewhere in the tree (`npm test` cleans
 * dist/ first) must not pull files from under a benchmark that is still starting processes.
 */
function snapshot(): string {
  const copy = join(root, 'node_modules/.cache/scholarly-metrics-bench/dist');
  for (let attempt = 1; ; attempt++) {
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    cpSync(dist, copy, { recursive: true });
    if (complete(copy)) return copy;
    if (attempt === 5) throw new Error('dist/ kept changing while it was copied: run npm run bench again');
    spawnSync(process.execPath, ['-e', 'setTimeout(() => {}, 3000)']);
  }
}

/** Whether the entries and every chunk they import are there. */
function complete(dir: string): boolean {
  const files = ['index.js', 'index.cjs', 'testing.js', 'webhooks.js'];
  if (!files.every((file) => existsSync(join(dir, file)))) return false;
  return readdirSync(dir)
    .filter((file) => /\.c?js$/.test(file))
    .every((file) =>
      [
        ...readFileSync(join(dir, file), 'utf8').matchAll(
          /(?:from |import\(|require\()["'](\.\/[^"']+)["']/g,
        ),
      ].every(([, target]) => existsSync(join(dir, target!))),
    );
}

function section<T>(file: string, args: string[] = [], execArgv: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(join(root, 'bench', file), args, {
      cwd: root,
      execArgv: [...tsxExecArgv, ...execArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: T | undefined;
    child.on('message', (message) => {
      result = (message as { result: T }).result;
    });
    child.on('exit', (code) => {
      if (code === 0 && result !== undefined) resolve(result);
      else reject(new Error(`bench/${file} ${args.join(' ')} exited with ${code}`));
    });
  });
}

export interface Machine {
  node: string;
  v8: string;
  os: string;
  cpu: string;
  cores: number;
  memoryGB: number;
  loadBefore: number[];
  loadAfter: number[];
  date: string;
  commit: string;
  minutes: number;
}

function commit(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8' });
  return head.stdout.trim() + (dirty.stdout.trim() ? ' (src/ with uncommitted changes)' : '');
}

/** The last run's results, kept so that `npm run bench -- --from-last` rewrites BENCHMARKS.md alone. */
const lastResults = join(root, 'node_modules/.cache/scholarly-metrics-bench/results.json');

async function main(): Promise<void> {
  if (process.argv.includes('--from-last')) {
    writeFileSync(join(root, 'BENCHMARKS.md'), markdown(JSON.parse(readFileSync(lastResults, 'utf8'))));
    console.log('rewrote BENCHMARKS.md from the last run');
    return;
  }
  const started = performance.now();
  ensureBuild();
  if (!process.env.BENCH_DIST) process.env.BENCH_DIST = snapshot();
  const loadBefore = loadavg();
  const step = async <T>(label: string, run: () => Promise<T> | T): Promise<T> => {
    const at = performance.now();
    process.stdout.write(`${label}… `);
    const result = await run();
    console.log(`${((performance.now() - at) / 1000).toFixed(0)} s`);
    return result;
  };
  const request = await step('1. per request', () => section<RequestResult>('request.ts'));
  const costs = await step('1b. per request, cost by cost', () => section<CostResult>('request-costs.ts'));
  const quota = await step('2. quota', () => section<QuotaResult>('quota.ts'));
  const validation = await step('3. validation', () => section<ValidationResult>('validation.ts'));
  const bodyRead = await step('3b. body read', () => section<BodyReadResult>('body-read.ts'));
  const memory = await step('4. memory', () => memoryRounds());
  const size = await step('5. browser bundles', () => sizes());
  const coldStart = await step('6. cold start', () => section<ColdStartResult>('cold-start.ts'));
  const paging = await step('7. paging', () => section<PagingResult>('paging.ts'));
  const getMany = await step('8. getMany', () => section<GetManyResult>('get-many.ts'));
  const cli = await step('9. command line', () => section<CliResult>('cli.ts'));
  const cache = await step('10. cache', () => section<CacheResult>('cache.ts'));
  const redisQuota = await step('11. Redis quota', () =>
    section<RedisQuotaResult | { skipped: string }>('redis-quota.ts'),
  );
  const telemetry = await step('12. telemetry', () => section<TelemetryResult>('telemetry.ts'));
  const machine: Machine = {
    node: process.version,
    v8: process.versions.v8,
    os: `${platform()} ${release()} ${arch()}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGB: totalmem() / 1024 ** 3,
    loadBefore,
    loadAfter: loadavg(),
    date: new Date().toISOString(),
    commit: commit(),
    minutes: (performance.now() - started) / 60_000,
  };
  const results: Results = {
    machine,
    request,
    costs,
    quota,
    validation,
    bodyRead,
    memory,
    size,
    coldStart,
    paging,
    getMany,
    cli,
    cache,
    redisQuota,
    telemetry,
  };
  writeFileSync(lastResults, JSON.stringify(results));
  const text = markdown(results);
  writeFileSync(join(root, 'BENCHMARKS.md'), text);
  console.log(`\nwrote BENCHMARKS.md in ${machine.minutes.toFixed(1)} min\n`);
  console.log(text.slice(0, text.indexOf('\n## ', text.indexOf('## Results')) + 1 || undefined));
}

/**
 * The walks that are compared (the SDK, ky by hand, ky by hand with the SDK's check) round-robin, a
 * fresh process each, the starting contender rotating; then the runtime's own loops once, for reference.
 */
async function memoryRounds(): Promise<MemoryResult[]> {
  const compared: MemoryContender[] = [
    { kind: 'sdk', prefetch: 1 },
    { kind: 'sdk', prefetch: 8 },
    { kind: 'ky' },
    { kind: 'ky, checked' },
  ];
  const walk = (contender: MemoryContender) =>
    section<MemoryResult>('memory.ts', [JSON.stringify(contender)], ['--expose-gc']);
  const results: MemoryResult[] = [];
  for (let round = 0; round < memoryConfig.rounds; round++) {
    for (let k = 0; k < compared.length; k++) {
      results.push({ ...(await walk(compared[(k + round) % compared.length]!)), round });
    }
  }
  for (const contender of [{ kind: 'fetch' }, { kind: 'http' }] as const) {
    results.push({ ...(await walk(contender)), round: 0 });
  }
  return results;
}

await main();
