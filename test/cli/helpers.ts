/**
 * Runs the real `scholarly-metrics` bin (its TypeScript, through tsx) in a child process, as a shell
 * would: arguments, environment, stdin; the output collected, or written to files for the tests
 * that kill the process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { MOCK_API_KEY } from '../../src/testing/index.js';

export const bin = fileURLToPath(new URL('../../src/cli/index.ts', import.meta.url));

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export interface RunOptions {
  /** The API's base URL (METRIC_BASE_URL); the Professional key goes with it unless `key` is given. */
  url?: string;
  key?: string | undefined;
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input?: string;
  cwd?: string;
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
  if (options.url !== undefined) env.METRIC_BASE_URL = options.url;
  const key = 'key' in options ? options.key : options.url === undefined ? undefined : MOCK_API_KEY;
  if (key !== undefined) env.METRIC_API_KEY = key;
  return { ...env, ...options.env };
}

/** Starts the bin; the caller waits for it with `exited`. */
export function start(args: string[], options: RunOptions = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], {
    env: environment(options),
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  const exited = (async (): Promise<Result> => {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    // 'exit' can come before the last of the pipes is read.
    if (child.stdout.readable) await once(child.stdout, 'close');
    return { code, signal, stdout, stderr };
  })();
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Runs the bin to its end. */
export function run(args: string[], options: RunOptions = {}): Promise<Result> {
  return start(args, options).exited;
}

/** Lines of JSON, parsed. */
export function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}
