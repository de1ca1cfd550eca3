/**
 * The suite's one way to run a Node script in a child process: TypeScript bundled once (see
 * bundle.ts), JavaScript as it is, with the Node that runs the tests (24 under npm). The output is
 * collected; a child still running when its test ends is killed with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { bundled } from './bundle.js';
import { afterThisTest } from './cleanup.js';
import { tiedToThisProcess } from './tied.js';

export interface SpawnOptions {
  /** The whole environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Node's own flags, before the script (e.g. `--expose-gc`). */
  execArgv?: readonly string[];
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
  /** Bundle the script first (a JavaScript script that imports the TypeScript source). */
  bundle?: boolean;
  /**
   * Registers the child's kill for when its test ends. A concurrent test passes its context's
   * `onTestFinished`: the shared `afterThisTest` would kill every running test's children when the
   * first of them ends.
   * @default afterThisTest
   */
  onTestEnd?: (cleanup: () => void) => void;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Spawned {
  readonly child: ChildProcess;
  /** Resolves when the child has exited and its output is read to the end. */
  readonly exited: Promise<Exit>;
  /** The output so far. */
  output(): { stdout: string; stderr: string };
}

/** Starts `script` (a .ts file, or any with `bundle`, bundled; else as it is) with `args`. */
export function spawnNode(script: string, args: readonly string[], options: SpawnOptions = {}): Spawned {
  const entry = options.bundle || script.endsWith('.ts') ? bundled(script) : script;
  const node = tiedToThisProcess(process.execPath, [...(options.execArgv ?? []), entry, ...args]);
  const child = spawn(...node, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  (options.onTestEnd ?? afterThisTest)(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // A child that exits without reading its stdin must not fail the test with EPIPE.
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  const exited = (async (): Promise<Exit> => {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    // 'exit' can come before the last of the pipes is read.
    if (child.stdout.readable) await once(child.stdout, 'close');
    if (child.stderr.readable) await once(child.stderr, 'close');
    return { code, signal, stdout, stderr };
  })();
  return { child, exited, output: () => ({ stdout, stderr }) };
}
