/**
 * The bin on a real terminal: Debian's tmux runs it in a detached session of a known size. `bytes()`
 * is what the bin wrote to the terminal (tmux's pipe-pane, attached before the bin starts), `screen()`
 * what the terminal shows (capture-pane). Missing tmux: a loud skip locally, a failure with CI=true.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOCK_API_KEY } from '../../src/testing/index.js';
import { afterThisTest } from '../helpers/cleanup.js';
import { skipWithout } from '../helpers/real-part.js';
import { tiedToThisProcess } from '../helpers/tied.js';
import { bin } from './helpers.js';
import { scratch } from './resume.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** Whether the tmux tests of `file` skip (see {@link skipWithout}). */
export const skipWithoutTmux = (file: string) =>
  skipWithout({ name: 'tmux', present: hasTmux, install: 'apt-get install tmux' }, file);

let sessions = 0;

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export interface TerminalOptions {
  url: string;
  width: number;
  /** @default 50 */
  height?: number;
  env?: Record<string, string>;
  cwd?: string;
}

/** How often, and how many times at most, the screen is read while waiting: a hung bin fails the test. */
const pollMs = 50;
const maxPolls = 2_400;
/** How many times the server is asked for before it counts as not starting. */
const serverPolls = 200;

/**
 * A tmux server of the test's own: in the foreground (`-D`), a child of this process tied to it (a
 * run killed outright takes it along), stopped by its PID after the test. Its socket is a path of its
 * own, so no other tmux is reached. The first client waits for the server to answer there: one that
 * found no server would start a daemon of its own.
 */
function tmuxServer(cwd: string): string {
  const socket = join(tmpdir(), `scholarly-tmux-${process.pid}-${++sessions}`);
  const server = spawn(...tiedToThisProcess('tmux', ['-D', '-S', socket, '-f', '/dev/null']), {
    cwd,
    stdio: 'ignore',
  });
  afterThisTest(() => {
    server.kill('SIGKILL');
    rmSync(socket, { force: true });
  });
  // Waited for in place: the sessions are made synchronously. A server that cannot start (a tmux
  // without -D) is said within serverPolls, not left to the test's timeout.
  for (let poll = 0; poll < serverPolls; poll++) {
    if (spawnSync('tmux', ['-S', socket, 'list-sessions']).status === 0) return socket;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pollMs);
  }
  throw new Error(`the tmux server at ${socket} never answered (tmux -D needs tmux 3.2 or later)`);
}

/** A fresh detached tmux session `width` × `height` running `command` in `cwd`, stopped after the test. */
export function tmuxSession(options: { width: number; height: number; command: string; cwd?: string }) {
  if (!hasTmux) throw new Error('tmux is not installed: .ci/run installs it with apt-get');
  const cwd = options.cwd ?? fileURLToPath(new URL('../../', import.meta.url));
  const socket = tmuxServer(cwd);
  const tmux = (...tmuxArgs: string[]) =>
    execFileSync('tmux', ['-S', socket, ...tmuxArgs], { encoding: 'utf8', cwd });
  const size = ['-x', String(options.width), '-y', String(options.height)];
  tmux('new-session', '-d', ...size, options.command);
  const screen = () => tmux('capture-pane', '-p', '-J');
  /** The screen once it matches `pattern`. */
  const until = async (pattern: RegExp): Promise<string> => {
    for (let poll = 0; poll < maxPolls; poll++) {
      const text = screen();
      if (pattern.test(text)) return text;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    throw new Error(`the terminal never showed ${pattern}; it shows:\n${screen()}`);
  };
  return { tmux, screen, until };
}

/** Runs the bin with `args` in a fresh tmux session `width` columns wide and `height` rows high. */
export function tmuxRun(args: string[], options: TerminalOptions) {
  const folder = scratch();
  const go = join(folder, 'go');
  const bytesFile = join(folder, 'bytes');
  const env = { METRIC_BASE_URL: options.url, METRIC_API_KEY: MOCK_API_KEY, ...options.env };
  const command = [
    // The bin starts once pipe-pane is attached, so every byte it writes is captured.
    `while [ ! -e ${quote(go)} ]; do sleep 0.02; done;`,
    'env',
    ...Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`),
    quote(process.execPath),
    quote(bin),
    ...args.map(quote),
    '; echo "exit-$?"; sleep 600',
  ].join(' ');
  const session = tmuxSession({
    width: options.width,
    height: options.height ?? 50,
    command,
    cwd: options.cwd,
  });
  const { tmux, screen, until } = session;
  tmux('pipe-pane', '-o', `cat > ${quote(bytesFile)}`);
  writeFileSync(go, '');
  const bytes = () => (existsSync(bytesFile) ? readFileSync(bytesFile) : Buffer.alloc(0));
  const title = () => tmux('display-message', '-p', '#{pane_title}');
  const done = async (): Promise<{ screen: string; bytes: Buffer; code: number }> => {
    const text = await until(/exit-\d+/);
    return { screen: text, bytes: bytes(), code: Number(/exit-(\d+)/.exec(text)?.[1]) };
  };
  /** Types `keys` into the terminal, as tmux's send-keys takes them (`Enter`, `C-d`). */
  const type = (...keys: string[]) => tmux('send-keys', ...keys);
  return { screen, bytes, title, until, done, type };
}
