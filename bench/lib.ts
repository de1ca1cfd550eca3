/**
 * Shared by every benchmark: where things are, loading the built package, starting the API in its
 * own process, running contenders round-robin, and medians.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The build under test: dist/, unless BENCH_DIST names another build of the same sources. */
export const dist = process.env.BENCH_DIST ?? join(root, 'dist');

/** Options that run a bench file (TypeScript) in a child process. */
export const tsxExecArgv = ['--import', 'tsx'];

/**
 * The package as built in dist/ (what users import), typed from src/ so that the bench type-checks on a
 * fresh clone, before any build.
 */
export async function loadSdk(): Promise<typeof import('../src/index.js')> {
  return import(pathToFileURL(join(dist, 'index.js')).href);
}

/** The headers the SDK puts on a request (its key, `accept`, its User-Agent), as ky hands it to `fetch`. */
export async function sdkHeaders(baseUrl: string, apiKey: string): Promise<Record<string, string>> {
  const { MetricClient } = await loadSdk();
  let seen: Headers | undefined;
  const spy: typeof fetch = (input, init) => {
    seen = new Request(input, init).headers;
    return fetch(input, init);
  };
  await new MetricClient({ apiKey, baseUrl, fetch: spy }).journals.get(1);
  if (!seen) throw new Error('the SDK sent nothing');
  return Object.fromEntries(seen);
}

export async function loadTesting(): Promise<typeof import('../src/testing/index.js')> {
  return import(pathToFileURL(join(dist, 'testing.js')).href);
}

/** A real 1,000-item page: ten pages of the mock's papers, joined. */
export async function pageText(): Promise<string> {
  const { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } = await loadTesting();
  const api = createMockApi({ sizes: { journals: 1, papers: 1000 } });
  const data: unknown[] = [];
  for (let page = 1; page <= 10; page++) {
    const response = await api.fetch(`${MOCK_BASE_URL}/journals/1/papers?page=${page}&per_page=100`, {
      headers: { authorization: `Bearer ${MOCK_API_KEY}` },
    });
    data.push(...((await response.json()) as { data: unknown[] }).data);
  }
  if (data.length !== 1000) throw new Error(`expected 1,000 papers, got ${data.length}`);
  return JSON.stringify({ data, total: data.length });
}

/** What bench/server.ts serves. */
export type ServerConfig =
  | { kind: 'mock'; options?: import('../src/testing/index.js').MockServerOptions }
  | { kind: 'synth'; total: number };

export interface RunningServer {
  readonly url: string;
  /** How many API requests the server has received so far. */
  received(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts the API in a process of its own, so that its work never runs on the client's thread: the
 * client's costs are what is measured, and on two cores each side gets one.
 */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const child = fork(join(root, 'bench/server.ts'), [JSON.stringify(config)], {
    cwd: root,
    execArgv: tsxExecArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code} before listening`)));
  });
  const received = () =>
    new Promise<number>((resolve) => {
      const listener = (message: { received?: number }) => {
        if (message.received === undefined) return;
        child.off('message', listener);
        resolve(message.received);
      };
      child.on('message', listener);
      child.send({ count: true });
    });
  return { url, received, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Linear interpolation between the closest ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

export interface Contender {
  readonly name: string;
  /**
   * One operation (one request, one parse…). `i` numbers the operations of a round, the same for every
   * contender, so that contenders that vary their input (which journal) get the same inputs.
   */
  readonly run: (i: number) => Promise<unknown> | unknown;
}

/** Per round and per contender: wall time and this process's CPU time, per operation, in µs. */
export interface Samples {
  readonly wall: number[];
  readonly cpu: number[];
}

/**
 * Runs every contender in small batches, round-robin, the starting contender rotating each round, so
 * that a noisy neighbour or a CPU frequency change hits all of them alike. Each round gives one sample
 * per contender; compare contenders round by round ({@link pairedRatios}).
 */
export async function interleave(
  contenders: readonly Contender[],
  options: { rounds: number; batch: number; warmup: number },
): Promise<Map<string, Samples>> {
  const samples = new Map<string, Samples>(contenders.map((c) => [c.name, { wall: [], cpu: [] }]));
  for (const contender of contenders) for (let n = 0; n < options.warmup; n++) await contender.run(n);
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(k + round) % contenders.length]!;
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let n = 0; n < options.batch; n++) await contender.run(round * options.batch + n);
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const sample = samples.get(contender.name)!;
      sample.wall.push((wall * 1000) / options.batch);
      sample.cpu.push((used.user + used.system) / options.batch);
    }
  }
  return samples;
}

/** `a / b` round by round: the ratio free of whatever drifted between rounds. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}

/** What interleave's samples say: each contender's spread, and the paired ratio of any two. */
export function figures(samples: Map<string, Samples>) {
  const of = (name: string) => samples.get(name)!;
  return {
    contender: (name: string) => ({ name, wall: spread(of(name).wall), cpu: spread(of(name).cpu) }),
    ratio: (a: string, b: string) => ({
      of: a,
      to: b,
      wall: spread(pairedRatios(of(a).wall, of(b).wall)),
      cpu: spread(pairedRatios(of(a).cpu, of(b).cpu)),
    }),
  };
}

export interface Spread {
  readonly median: number;
  readonly p25: number;
  readonly p75: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), p25: quantile(values, 0.25), p75: quantile(values, 0.75) };
}

/** A bench file run by bench/run.ts hands its result back over IPC; run alone, it prints it. */
export async function report(main: () => Promise<unknown>): Promise<void> {
  const result = await main();
  if (process.send) process.send({ result });
  else console.log(JSON.stringify(result, null, 2));
}

/**
 * Full collections, a timer turn apart, until the heap has stopped shrinking twice in a row. One is not enough: Node's
 * `fetch` lets go of its per-response bookkeeping (a FinalizationRegistry, WeakRefs) only in a later
 * turn, so right after a walk a single collection still counts megabytes that nothing holds.
 */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  let last = Number.POSITIVE_INFINITY;
  for (let turn = 0, steady = 0; turn < 30 && steady < 2; turn++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    steady = last - used < 16 * 1024 ? steady + 1 : 0;
    last = used;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
