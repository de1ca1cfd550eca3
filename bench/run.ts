/**
 * `npm run bench`: builds dist/ if it is older than the sources, runs every benchmark in a process of
 * its own, one after the other, and writes BENCHMARKS.md with the figures, the machine and the command.
 */
import { fork, spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { ColdStartResult } from './cold-start.js';
import { dist, root, tsxExecArgv } from './lib.js';
import type { MemoryContender, MemoryResult } from './memory.js';
import type { PagingResult } from './paging.js';
import { markdown } from './report.js';
import type { RequestResult } from './request.js';
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

async function main(): Promise<void> {
  const started = performance.now();
  ensureBuild();
  const loadBefore = loadavg();
  const step = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    process.stdout.write(`${label}… `);
    const result = await run();
    console.log(`${((performance.now() - at) / 1000).toFixed(0)} s`);
    return result;
  };
  const request = await step('1. per-request overhead', () => section<RequestResult>('request.ts'));
  const validation = await step('2. validation', () => section<ValidationResult>('validation.ts'));
  const paging = await step('3. paging', () => section<PagingResult>('paging.ts'));
  const memoryContenders: MemoryContender[] = [
    { kind: 'sdk', prefetch: 1 },
    { kind: 'sdk', prefetch: 8 },
    { kind: 'sdk over node:http' },
    { kind: 'fetch' },
    { kind: 'http' },
  ];
  const memory: MemoryResult[] = [];
  for (const contender of memoryContenders) {
    memory.push(
      await step(`4. memory (${JSON.stringify(contender)})`, () =>
        section<MemoryResult>('memory.ts', [JSON.stringify(contender)], ['--expose-gc']),
      ),
    );
  }
  const coldStart = await step('5. cold start', () => section<ColdStartResult>('cold-start.ts'));
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
  const text = markdown({ machine, request, validation, paging, memory, coldStart });
  writeFileSync(join(root, 'BENCHMARKS.md'), text);
  console.log(`\nwrote BENCHMARKS.md in ${machine.minutes.toFixed(1)} min\n`);
  console.log(text.slice(0, text.indexOf('\n## ', text.indexOf('## Results')) + 1 || undefined));
}

await main();
