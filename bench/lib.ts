// The measurement plumbing every benchmark shares: the build under test, processes of their own (the
// bench server, a benchmark's child), contenders round-robin, and the statistics of their rounds.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The build under test: dist/, or the copy of it that bench/run.ts makes for the whole run. */
export const dist = process.env.BENCH_DIST ?? join(root, 'dist');
/** BENCH_QUICK=1 shrinks rounds and sizes: it shows that a benchmark runs, not how fast anything is. */
export const scaled = (full: number, small: number) => (process.env.BENCH_QUICK === '1' ? small : full);

/** The package as built (what users import), typed from src/ so that bench/ type-checks before a build. */
export const loadSdk = (): Promise<typeof import('../src/index.js')> =>
  import(pathToFileURL(join(dist, 'index.js')).href);
export const loadTesting = (): Promise<typeof import('../src/testing/index.js')> =>
  import(pathToFileURL(join(dist, 'testing.js')).href);

/** A client of the built SDK with the mock's key: `MetricClient` options beside. */
export async function sdk(baseUrl: string, options: Partial<import('../src/index.js').ClientOptions> = {}) {
  const [{ MetricClient }, { MOCK_API_KEY }] = await Promise.all([loadSdk(), loadTesting()]);
  return new MetricClient({ apiKey: MOCK_API_KEY, baseUrl, ...options });
}

/** The headers the SDK puts on a request (its key, `accept`, its User-Agent), read off one it sent. */
export async function sdkHeaders(baseUrl: string): Promise<Record<string, string>> {
  let seen: Headers | undefined;
  const spy: typeof fetch = (input, init) => {
    seen = new Request(input, init).headers;
    return fetch(input, init);
  };
  await (await sdk(baseUrl, { fetch: spy })).journals.get(1);
  return Object.fromEntries(seen!);
}

/** A real 1,000-item page: ten pages of the mock's papers, joined. */
export async function pageText(): Promise<string> {
  const { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } = await loadTesting();
  const api = createMockApi({ sizes: { journals: 1, papers: 1000 } });
  const data: unknown[] = [];
  for (let page = 1; page <= 10; page++) {
    const url = `${MOCK_BASE_URL}/journals/1/papers?page=${page}&per_page=100`;
    const response = await api.fetch(url, { headers: { authorization: `Bearer ${MOCK_API_KEY}` } });
    data.push(...((await response.json()) as { data: unknown[] }).data);
  }
  return JSON.stringify({ data, total: data.length });
}

/**
 * `tsx bench/child.ts FILE EXPORT [ARG]`: what the function returns, handed back over IPC. A process
 * per benchmark keeps one's heap and compiled code out of the next.
 */
export function inChild<T>(file: string, call: { fn?: string; arg?: unknown; execArgv?: string[] } = {}) {
  const args = [file, call.fn ?? 'measure', ...(call.arg === undefined ? [] : [JSON.stringify(call.arg)])];
  const child = fork(join(root, 'bench/child.ts'), args, {
    execArgv: ['--import', 'tsx', ...(call.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<T>((resolve, reject) => {
    let result: T | undefined;
    child.on('message', (message) => {
      result = (message as { result: T }).result;
    });
    child.on('exit', (code) => {
      if (code === 0 && result !== undefined) resolve(result);
      else reject(new Error(`bench/${args.join(' ')} exited with ${code}`));
    });
  });
}

/** What bench/server.ts serves: the mock API, or pages made up as they are asked for. */
export type ServerConfig =
  | { kind: 'mock'; options?: import('../src/testing/index.js').MockServerOptions }
  | { kind: 'synth'; total: number };
export type Server = { url: string; received(): Promise<number> };

/**
 * `use` with the API in a process of its own, so that its work never runs on the client's thread (on
 * two cores, each side gets one). `received()` asks how many API requests have arrived so far.
 */
export async function withServer<T>(config: ServerConfig, use: (server: Server) => Promise<T>): Promise<T> {
  const child = fork(join(root, 'bench/server.ts'), [JSON.stringify(config)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
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
        child.on('message', listener).send({ count: true });
      });
    return await use({ url, received });
  } finally {
    if (child.exitCode === null) child.kill();
    await exited;
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

export type Spread = { median: number; p25: number; p75: number };
export const spread = (values: readonly number[]): Spread => ({
  median: median(values),
  p25: quantile(values, 0.25),
  p75: quantile(values, 0.75),
});

/** `a / b` round by round: the ratio free of whatever drifted between rounds. */
export const pairedRatios = (a: readonly number[], b: readonly number[]) => a.map((v, i) => v / b[i]!);
export const pairedDifferences = (a: readonly number[], b: readonly number[]) => a.map((v, i) => v - b[i]!);
export const pairedMedian = (a: readonly number[], b: readonly number[]) => median(pairedRatios(a, b));

/**
 * Each contender once per round, the first rotating from round to round, so that a noisy neighbour or
 * a change of CPU frequency hits them all alike. What each run gave, by contender, in round order.
 */
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

/** Milliseconds that `run` took, and what it gave. */
export async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

/** One operation; `i` numbers them alike for every contender, so that they get the same inputs. */
export type Contender = { name: string; run: (i: number) => unknown };
type Samples = { wall: number[]; cpu: number[] };

/**
 * Contenders in small batches, round-robin: per round, each one's wall time and this process's CPU
 * time per operation, in µs (`samples`); each one's spread, and the paired ratios of `pairs`.
 */
export async function compare(
  contenders: readonly Contender[],
  options: { rounds: number; batch: number; warmup: number },
  pairs: ReadonlyArray<readonly [string, string]> = [],
) {
  const { rounds, batch, warmup } = options;
  for (const { run } of contenders) for (let n = 0; n < warmup; n++) await run(n);
  const byName = new Map(contenders.map((contender) => [contender.name, contender.run]));
  const runs = await roundRobin([...byName.keys()], rounds, async (name, round) => {
    const [run, cpu, started] = [byName.get(name)!, process.cpuUsage(), performance.now()];
    for (let n = 0; n < batch; n++) await run(round * batch + n);
    const [wall, used] = [performance.now() - started, process.cpuUsage(cpu)];
    return { wall: (wall * 1000) / batch, cpu: (used.user + used.system) / batch };
  });
  const samples = new Map<string, Samples>();
  for (const [name, list] of runs)
    samples.set(name, { wall: list.map((s) => s.wall), cpu: list.map((s) => s.cpu) });
  const of = (name: string) => samples.get(name)!;
  const ratio = (a: string, b: string) => ({
    of: a,
    to: b,
    wall: spread(pairedRatios(of(a).wall, of(b).wall)),
    cpu: spread(pairedRatios(of(a).cpu, of(b).cpu)),
  });
  return {
    rounds,
    batch,
    contenders: contenders.map(({ name }) => ({
      name,
      wall: spread(of(name).wall),
      cpu: spread(of(name).cpu),
    })),
    ratios: pairs.map(([a, b]) => ratio(a, b)),
    samples,
  };
}

/**
 * Full collections, a timer turn apart, until the heap has stopped shrinking twice in a row: Node's
 * `fetch` lets go of its per-response bookkeeping (a FinalizationRegistry, WeakRefs) only in a later turn.
 */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let last = Number.POSITIVE_INFINITY;
  for (let turn = 0, steady = 0; gc && turn < 30 && steady < 2; turn++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    steady = last - used < 16 * 1024 ? steady + 1 : 0;
    last = used;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
