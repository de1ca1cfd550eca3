// What every benchmark shares: the build under test, processes of their own, contenders round-robin, statistics.
import { deepStrictEqual } from 'node:assert';
import { type ChildProcess, fork, type StdioOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { text } from 'node:stream/consumers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The build under test: dist/, or the copy of it that bench/run.ts makes for the whole run. */
export const dist = process.env.BENCH_DIST ?? join(root, 'dist');
/** BENCH_QUICK=1 shrinks rounds and sizes: it shows that a benchmark runs, not how fast anything is. */
export const scaled = (full: number, small: number) => (process.env.BENCH_QUICK === '1' ? small : full);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A module of the build under test, typed from src/ so that bench/ type-checks before a build. */
export const loadDist = <T>(file: string, from = dist): Promise<T> =>
  import(pathToFileURL(join(from, file)).href);
export const loadSdk = () => loadDist<typeof import('../src/index.js')>('index.js');
export const loadTesting = () => loadDist<typeof import('../src/testing/index.js')>('testing.js');

export async function sdk(baseUrl: string, options: Partial<import('../src/index.js').ClientOptions> = {}) {
  const [{ MetricClient }, { MOCK_API_KEY }] = await Promise.all([loadSdk(), loadTesting()]);
  return new MetricClient({ apiKey: MOCK_API_KEY, baseUrl, ...options });
}

/** The headers the SDK puts on a request (its key, `accept`, its User-Agent), read off one it sent. */
export async function sdkHeaders(baseUrl: string): Promise<Record<string, string>> {
  let seen = new Headers();
  const spy: typeof fetch = (input, init) => {
    seen = new Request(input, init).headers;
    return fetch(input, init);
  };
  await (await sdk(baseUrl, { fetch: spy })).journals.get(1);
  return Object.fromEntries(seen);
}

/** A real 1,000-item page: ten pages of the mock's papers, joined. */
export async function pageText(): Promise<string> {
  const { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } = await loadTesting();
  const api = createMockApi({ sizes: { journals: 1, papers: 1000 } });
  const init = { headers: { authorization: `Bearer ${MOCK_API_KEY}` } };
  const data: unknown[] = [];
  for (let page = 1; page <= 10; page++) {
    const response = await api.fetch(`${MOCK_BASE_URL}/journals/1/papers?page=${page}&per_page=100`, init);
    data.push(...((await response.json()) as { data: unknown[] }).data);
  }
  return JSON.stringify({ data, total: data.length });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));

type Call = { fn?: string; arg?: unknown; execArgv?: string[] };
/** What `tsx bench/child.ts FILE EXPORT [ARG]` printed last: a process per benchmark, heaps kept apart. */
export async function inChild<T>(file: string, { fn = 'measure', arg, execArgv = [] }: Call = {}) {
  const args = [file, fn, ...(arg === undefined ? [] : [JSON.stringify(arg)])];
  const out = await runNode([...execArgv, '--import', 'tsx', 'bench/child.ts', ...args]);
  return JSON.parse(out.trimEnd().split('\n').pop()!) as T;
}

/** `node ARGS` from the repository's root, `env` added: its exit code and output (stderr kept if `quiet`). */
export async function node(args: string[], env: Record<string, string> = {}, quiet = false) {
  const stdio: StdioOptions = ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'];
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio });
  const [out, err] = [text(child.stdout!), child.stderr ? text(child.stderr) : ''];
  return { code: await exited(child), out: await out, err: await err };
}
export async function runNode(args: string[], env: Record<string, string> = {}, quiet = false) {
  const { code, out, err } = await node(args, env, quiet);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}: ${err}`);
  return out;
}

export type ServerConfig =
  | { kind: 'mock'; options?: import('../src/testing/index.js').MockServerOptions }
  | { kind: 'synth'; total: number };
export type Server = { url: string; received(): Promise<number> };

/** `use` with the API in a process of its own, off the client's thread; `received()`: requests so far. */
export async function withServer<T>(config: ServerConfig, use: (server: Server) => Promise<T>): Promise<T> {
  const stdio: StdioOptions = ['ignore', 'inherit', 'inherit', 'ipc'];
  const args = [JSON.stringify(config)];
  const child = fork(join(root, 'bench/server.ts'), args, { execArgv: ['--import', 'tsx'], stdio });
  const ended = exited(child);
  const died = ended.then((code) => Promise.reject(new Error(`bench server exited with ${code}`)));
  died.catch(() => {});
  // The server answers one question at a time: its next message is the answer.
  const next = () => Promise.race([once(child, 'message'), died]).then(([message]) => message);
  try {
    const { url } = await next();
    const received = async () => {
      child.send({ count: true });
      return (await next()).received as number;
    };
    return await use({ url, received });
  } finally {
    if (child.exitCode === null) child.kill();
    await ended;
  }
}

/** Linear interpolation between the closest ranks. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const [low, high] = [Math.floor(position), Math.ceil(position)];
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}
export const median = (values: readonly number[]) => quantile(values, 0.5);
/** The median of each of `keys` across `list`: one figure per key from many runs or rounds. */
export const medians = <K extends string>(list: ReadonlyArray<Record<K, number>>, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, median(list.map((item) => item[key]))])) as Record<K, number>;
export type Spread = { median: number; p25: number; p75: number };
export const spread = (v: readonly number[]): Spread => ({
  median: median(v),
  p25: quantile(v, 0.25),
  p75: quantile(v, 0.75),
});

/** `a / b` round by round: the ratio free of whatever drifted between rounds. */
export const pairedRatios = (a: readonly number[], b: readonly number[]) => a.map((v, i) => v / b[i]!);
export const pairedDifferences = (a: readonly number[], b: readonly number[]) => a.map((v, i) => v - b[i]!);

/** Each contender once per round, the first rotating, so that a noisy neighbour hits all alike. */
export async function roundRobin<N extends string, T>(
  names: readonly N[],
  rounds: number,
  run: (name: N, round: number) => Promise<T> | T,
): Promise<Map<N, T[]>> {
  const results = new Map(names.map((name) => [name, [] as T[]]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length]!;
      results.get(name)!.push(await run(name, round));
    }
  }
  return results;
}

/** Whole runs round-robin: each one's median ms, the first's time over its own (paired), all alike? */
export async function raceRuns(runs: Record<string, () => Promise<unknown>>, rounds: number) {
  const [names, first] = [Object.keys(runs), Object.values(runs)[0]!];
  const expected = await first();
  let same = true;
  const times = await roundRobin(names, rounds, async (name) => {
    const started = performance.now();
    const value = await runs[name]!();
    same &&= isDeepStrictEqual(value, expected);
    return performance.now() - started;
  });
  const of = (name: string) => times.get(name)!;
  const contenders = names.map((name) => ({ name, ms: median(of(name)) }));
  const speedup = (name: string) => median(pairedRatios(of(names[0]!), of(name)));
  const speedups = names.slice(1).map((name) => ({ name, speedup: speedup(name) }));
  return { rounds, contenders, speedups, same };
}

type Key = 'wall' | 'cpu';
type Samples = Map<string, Record<Key, number[]>>;
const wallCpu = (f: (key: Key) => number[]) => ({ wall: spread(f('wall')), cpu: spread(f('cpu')) });
/** `a` against `b` round by round, wall and CPU: their ratios, or what `by` makes of each pair of rounds. */
export const paired = (samples: Samples, a: string, b: string, by = pairedRatios) =>
  wallCpu((key) => by(samples.get(a)![key], samples.get(b)![key]));

/**
 * Contenders (one operation on input `i` each) in batches, round-robin: wall and CPU µs per operation and round,
 * their spreads and the paired ratios of `pairs`. With `same`, each must first answer as the first one does.
 */
export async function compare(
  runs: Record<string, (i: number) => unknown>,
  { rounds, batch, warmup, same = 0 }: { rounds: number; batch: number; warmup: number; same?: number },
  pairs: ReadonlyArray<readonly [string, string]> = [],
) {
  const [names, [first, ...others]] = [Object.keys(runs), Object.values(runs)];
  for (let i = 0; i < same; i++) for (const run of others) deepStrictEqual(await run(i), await first!(i));
  for (const run of Object.values(runs)) for (let n = 0; n < warmup; n++) await run(n);
  const samples = new Map(names.map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  await roundRobin(names, rounds, async (name, round) => {
    const [run, cpu, started] = [runs[name]!, process.cpuUsage(), performance.now()];
    for (let n = 0; n < batch; n++) await run(round * batch + n);
    const [wall, used] = [performance.now() - started, process.cpuUsage(cpu)];
    samples.get(name)!.wall.push((wall * 1000) / batch);
    samples.get(name)!.cpu.push((used.user + used.system) / batch);
  });
  const contenders = names.map((name) => ({ name, ...wallCpu((key) => samples.get(name)![key]) }));
  const ratios = pairs.map(([a, b]) => ({ of: a, to: b, ...paired(samples, a, b) }));
  return { rounds, batch, contenders, ratios, samples };
}

/** Full collections a timer turn apart until the heap stops shrinking: `fetch` frees some only later. */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let last = Number.POSITIVE_INFINITY;
  for (let turn = 0, steady = 0; gc && turn < 30 && steady < 2; turn++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    steady = last - used < 16 * 1024 ? steady + 1 : 0;
    last = used;
    await sleep(10);
  }
}
