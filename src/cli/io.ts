/**
 * What a command takes from the process it runs in, in one object (as gh's commands take an IO):
 * its streams, the terminal's facts, the environment, the clock and the Ctrl-C signal. The bin builds
 * it from the real process (`processIO`); tests build one in memory and run commands in-process.
 */
import { fstatSync } from 'node:fs';
import { showsColors } from './color.js';
import { exitCodes, InterruptedError, stopExitCode, stopSignals } from './errors.js';
import { terminalSafe } from './output/escape.js';

/**
 * Whether `stream` is a pipe or socket to another program (`| less`, `| head`): that program may
 * share the terminal, where a status line drawn on stderr would land on its screen. A terminal, a
 * file, or a stream with no descriptor (a test's) is not.
 */
export function isPipe(stream: OutputStream): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (stream.isTTY === true || typeof fd !== 'number') return false;
  try {
    const info = fstatSync(fd);
    return info.isFIFO() || info.isSocket();
  } catch {
    return false;
  }
}

/** A stream a command writes to, with the terminal's facts when it is one. */
export interface OutputStream extends NodeJS.WritableStream {
  /** Whether this is a terminal: tables and progress, else data alone. */
  readonly isTTY?: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
}

export interface IO {
  readonly stdin: NodeJS.ReadableStream;
  /** The records. */
  readonly stdout: OutputStream;
  /** Progress, hints, logs and errors. */
  readonly stderr: OutputStream;
  /** The variables the command reads (METRIC_API_KEY, METRIC_BASE_URL, METRIC_LOG, METRIC_REDIS_URL, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether standard output shows colours (a terminal that has them). */
  readonly colors: boolean;
  /** Aborted by the first Ctrl-C: a command stops at its next await, its checkpoint kept. */
  readonly signal: AbortSignal;
  /** The clock of rates, times left and run durations. */
  readonly now: () => number;
}

/**
 * How soon after a stop another signal is the same one, delivered twice: the terminal sends Ctrl-C to
 * every process of the foreground group, and a wrapper that passes it on as well (`scholarly-metrics-mock
 * -- …`, a task runner) sends it again a moment later. As long as a command may take to wind down
 * (action.ts): a second press that soon could only cut short what the first has all but finished.
 */
const sameStopMs = 1_000;

/**
 * The IO of the real process. The first SIGINT, SIGTERM or SIGHUP aborts `signal`; a second one (not
 * the same one delivered twice) exits at once. A reader of stdout that goes away (`| head`) ends the
 * process with 0, and any other failure of stdout (a full disk under `> file`) with 1 and its error
 * line; a stderr that fails (its reader gone, `2>&1 | head`, or a full disk) only loses the messages,
 * and the command ends with its own exit code. The listeners stay for the process's life: a stop that comes once the run has ended (its exit
 * code decided, the process on its way out) must not meet Node's default, which would end the process
 * by the signal instead of with that code.
 */
export function processIO(): IO {
  const interrupt = new AbortController();
  // The first stop asked winds the command down (its checkpoint saved); a second one exits at once.
  let stoppedAt = 0;
  const stop = (reason: InterruptedError) => () => {
    if (!interrupt.signal.aborted) {
      stoppedAt = performance.now();
      interrupt.abort(reason);
    } else if (performance.now() - stoppedAt >= sameStopMs) process.exit(stopExitCode(interrupt.signal));
  };
  const onSignals = stopSignals.map(
    ({ signal, reason, code }) => [signal, stop(new InterruptedError(reason, code))] as const,
  );
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    exitOnStdoutFailure(error);
  };
  // A stderr that cannot be written (closed, a full disk under a cron log) loses the messages only.
  const onStderrError = () => {};
  for (const [signal, listener] of onSignals) process.on(signal, listener);
  process.stdout.on('error', onStdoutError);
  process.stderr.on('error', onStderrError);
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    colors: process.stdout.isTTY === true && showsColors(process.env),
    signal: interrupt.signal,
    now: Date.now,
  };
}

/**
 * Ends the process on a failure of stdout other than EPIPE, with its error line: the records the
 * command writes can no longer go anywhere, and an error thrown from the stream's listener would end
 * it with Node's stack instead.
 */
function exitOnStdoutFailure(error: Error): never {
  process.stderr.write(`error: ${terminalSafe(`cannot write standard output: ${error.message}`)}\n`);
  process.exit(exitCodes.failed);
}
