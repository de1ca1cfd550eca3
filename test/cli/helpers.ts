/**
 * Runs `scholarly-metrics` two ways. `run`: in-process, through `run(argv, io)` with an IO in memory
 * (streams, terminal facts, environment, clock, Ctrl-C signal), as most tests do. `runBin`/`start`:
 * the real bin in a child process, for what the process is the point of (signals, SIGKILL and resume,
 * a real terminal, Node's module loading): the built dist/cli.js when it is newer than every source
 * file (npm test builds before the tests), else the TypeScript bundled once.
 */
import { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../../src/cli/errors.js';
import type { IO } from '../../src/cli/io.js';
import { run as runCommandLine } from '../../src/cli/main.js';
import { MOCK_API_KEY, type MockServer } from '../../src/testing/index.js';
import { cliBin } from '../helpers/bin.js';
import { spawnNode } from '../helpers/spawn.js';

/** The bin spawned by `start` and `runBin`. */
export const bin = cliBin;

export interface RunOptions {
  /** The API's base URL (METRIC_BASE_URL); the Professional key goes with it unless `key` is given. */
  url?: string;
  key?: string | undefined;
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input?: string;
}

export interface InProcessOptions extends RunOptions {
  /** Standard output (`stdout`) and error (`stderr`) are terminals of this width. */
  terminal?: { stdout?: boolean; stderr?: boolean; columns?: number };
  /** Plays Ctrl-C when aborted. */
  signal?: AbortSignal;
  /** Standard input itself, in place of `input` (one a test keeps open). */
  stdin?: Readable;
  /** Told, after each write, all that `stream` holds so far (to act at a chosen moment of the run). */
  onWrite?: (stream: 'stdout' | 'stderr', written: string) => void;
  now?: () => number;
}

export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a run: none of the caller's METRIC_ variables leak in. */
export function environment(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('METRIC_')) env[name] = value;
  // The machine's terminal type is not the test's: TERM=dumb (a CI log) would draw no progress line.
  delete env.TERM;
  if (options.url !== undefined) env.METRIC_BASE_URL = options.url;
  const key = 'key' in options ? options.key : options.url === undefined ? undefined : MOCK_API_KEY;
  if (key !== undefined) env.METRIC_API_KEY = key;
  return { ...env, ...options.env };
}

/**
 * A stream collecting what is written, a terminal of `columns` when `terminal`; `onWrite` is told
 * what it holds after each write.
 */
export function captureStream(terminal = false, columns = 80, onWrite?: (written: string) => void) {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      onWrite?.(text);
      callback();
    },
  });
  Object.assign(stream, terminal ? { isTTY: true, columns } : { isTTY: false });
  return { stream, text: () => text };
}

/** An IO in memory for `options`, and readers of what was written. */
export function testIO(options: InProcessOptions = {}) {
  const columns = options.terminal?.columns ?? 80;
  const { onWrite } = options;
  const stdout = captureStream(options.terminal?.stdout === true, columns, (text) =>
    onWrite?.('stdout', text),
  );
  const stderr = captureStream(options.terminal?.stderr === true, columns, (text) =>
    onWrite?.('stderr', text),
  );
  const io: IO = {
    stdin: options.stdin ?? Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: environment(options),
    colors: false,
    signal: options.signal ?? new AbortController().signal,
    now: options.now ?? Date.now,
  };
  return { io, stdout: stdout.text, stderr: stderr.text };
}

/** Runs the command line in this process to its end. */
export async function run(args: string[], options: InProcessOptions = {}): Promise<Result> {
  const { io, stdout, stderr } = testIO(options);
  const code = await runCommandLine(args, io);
  return { code, signal: null, stdout: stdout(), stderr: stderr() };
}

/** Starts the real bin; the caller waits for it with `exited`. */
export function start(args: string[], options: RunOptions & { cwd?: string } = {}) {
  return spawnNode(bin, args, { env: environment(options), cwd: options.cwd, input: options.input });
}

/** Runs the real bin to its end. */
export function runBin(args: string[], options: RunOptions = {}): Promise<Result> {
  return start(args, options).exited;
}

/** Lines of JSON, parsed. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/**
 * Runs `args` in-process against `server` with a clock standing still (a checkpoint is saved only as
 * the run closes), stopped by Ctrl-C, as the bin's IO plays it, as the first request `matches` comes;
 * `onStop` runs at that moment (a test playing `kill -9` reads the files as they are on disk). `options`
 * as for `run` (a terminal).
 */
export async function runStoppedAt(
  server: MockServer,
  args: string[],
  matches: (url: URL) => boolean,
  { onStop, ...options }: InProcessOptions & { onStop?: () => void } = {},
): Promise<Result> {
  const stop = new AbortController();
  const handle = server.api.handle.bind(server.api);
  server.api.handle = (request) => {
    if (!stop.signal.aborted && matches(new URL(request.url))) {
      onStop?.();
      stop.abort(new InterruptedError('interrupted'));
    }
    return handle(request);
  };
  try {
    return await run(args, { url: server.url, now: () => 0, ...options, signal: stop.signal });
  } finally {
    server.api.handle = handle;
  }
}
