/**
 * One run of the command line, in-process: the arguments and the IO in, an exit code out. The bin
 * calls it with the real process's IO; tests call it with one in memory.
 */
import { type Command, CommanderError } from 'commander';
import { version } from '../../package.json';
import { type ColorChoice, paintReportFor } from './color.js';
import { cliCommands } from './commands/index.js';
import type { RunIO } from './context.js';
import type { CliCommand } from './endpoint-command.js';
import { exitCodes, InterruptedError, stopExitCode, stopSignals } from './errors.js';
import type { IO } from './io.js';
import { readLine } from './option-values.js';
import { createProgram } from './program.js';
import { redactingStream, Secrets } from './secrets.js';
import { type CliTelemetry, startTelemetry } from './telemetry.js';

/** The report of an error, loaded when there is one: it knows the SDK's errors, which load with the client. */
const loadReport = () => import('./report.js');

/** The shortest key looked for in answers: the redactor's own shortest start of a secret. */
const minimumKeyInAnswers = 12;

/**
 * Runs the command line `argv` (without node and the script) and resolves to its exit code; never
 * rejects. `commands` are the program's (a test may add one).
 */
export async function run(
  argv: readonly string[],
  io: IO,
  commands: readonly CliCommand[] = cliCommands,
): Promise<number> {
  const secrets = new Secrets();
  // Every line on stderr passes the run's secrets: none shows anywhere. The API key is one from the
  // start, since the parser's own errors echo the words of the line, where a key may be pasted; the
  // code that takes another (a Redis password) adds it.
  if (io.env.METRIC_API_KEY) secrets.add(io.env.METRIC_API_KEY);
  const stderr = redactingStream(io.stderr, secrets);
  const answerSecrets = new Secrets();
  const key = io.env.METRIC_API_KEY ?? '';
  if (key.length >= minimumKeyInAnswers) answerSecrets.add(key);
  let telemetry: CliTelemetry | undefined;
  // Bad OTLP settings refuse a command that would send, as it starts: `--help`, `--version` and a
  // usage error of the line come first, as they do for a missing key.
  let telemetryRefusal: unknown;
  try {
    telemetry = await startTelemetry(io.env);
  } catch (error) {
    telemetryRefusal = error;
  }
  const runIO: RunIO = {
    ...io,
    stderr,
    secrets,
    answerSecrets,
    harvest: { opened: false },
    telemetry: telemetry?.options,
    telemetryRefusal,
  };
  let code: number = exitCodes.failed;
  try {
    code = await runProgram(argv, runIO, commands);
  } finally {
    // Flushed before the exit code is handed back, within its bound: after Ctrl-C too, the bin exits right after.
    const stoppedBefore = io.signal.aborted;
    await telemetry?.shutdown(io.signal);
    // Ctrl-C while the last export runs stops the run as it would have stopped the command.
    if (telemetry !== undefined && !stoppedBefore && io.signal.aborted) code = stopExitCode(io.signal);
  }
  return code;
}

/** The command itself, its failure reported on stderr: its exit code. */
async function runProgram(
  argv: readonly string[],
  io: RunIO,
  commands: readonly CliCommand[],
): Promise<number> {
  const program = createProgram(version, io, commands);
  // The options as given, a value that starts with `-` read whole: `--q --debug` searches for `--debug`.
  const { words, given } = readLine(program, argv);
  const quietFlag = given.has('--quiet');
  if (quietFlag) dropUsageHints(program);
  try {
    await program.parseAsync(words, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message already; help and --version end with 0.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    const { describeError, exitCodeOf, stoppedBy } = await loadReport();
    // A run stopped before its harvest opened the file has nothing to resume.
    const resumable = io.harvest.opened ? resumableRun(program) : undefined;
    const stopped = stoppedBy(io.signal, error);
    const reported = stopped
      ? new InterruptedError(resumeHint(resumable, io.signal), stopExitCode(io.signal))
      : error;
    const { mock, baseUrl, color, quiet } = program.opts<{
      mock?: boolean;
      baseUrl?: string;
      color?: ColorChoice;
      quiet?: boolean;
    }>();
    const report = describeError(reported, {
      debug: given.has('--debug'),
      quiet: quiet === true || quietFlag,
      now: io.now(),
      // The URL as typed, for the hint to show what to fix: the client's own is normalised (escapes
      // percent-encoded, slashes trimmed). An empty one the SDK refuses as missing, before any request.
      baseUrl: mock ? undefined : (baseUrl ?? io.env.METRIC_BASE_URL),
      resume: resumable !== undefined && resumable.opts().resume !== true,
      resumable: resumable !== undefined,
      env: io.env,
    });
    io.stderr.write(paintReportFor(report, color, io));
    return exitCodeOf(reported);
  }
}

/** `-q` keeps a usage error's line and drops the hints after it (`(Did you mean …?)`, `--help`). */
function dropUsageHints(command: Command): void {
  command.showHelpAfterError(false).showSuggestionAfterError(false);
  for (const child of command.commands) dropUsageHints(child);
}

/**
 * The command that ran with `--output` (in any of its forms: `-o F`, `-oF`, `--output=F`), when
 * `--resume` is one of its options: the one command a stopped run continues with `--resume`.
 */
function resumableRun(command: Command): Command | undefined {
  if (command.opts().output !== undefined && command.options.some((option) => option.long === '--resume'))
    return command;
  for (const child of command.commands) {
    const found = resumableRun(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

function resumeHint(resumable: Command | undefined, signal: AbortSignal): string {
  const code = stopExitCode(signal);
  const by = stopSignals.find((stop) => stop.code === code)?.by ?? 'Ctrl-C';
  return resumable === undefined
    ? `stopped by ${by}`
    : `stopped by ${by}: run the same command with --resume to continue where it stopped`;
}
