/**
 * What every command needs from the global options and the run: a client (of the API named by the
 * environment, or of the built-in mock), a count of the requests it sends, the run's IO, and where
 * to write.
 */
import type { Command } from 'commander';
import type { ConfigurationError, MetricClient, TelemetryOptions } from '../index.js';
import type { ColorChoice } from './color.js';
import { cannotWrite, UsageError } from './errors.js';
import { type IO, isPipe } from './io.js';
import { refuseOtherDatabase } from './output/database-files.js';
import { fileSink, type Sink, stdoutSink } from './output/sink.js';
import { streamKind, streamSink } from './output/stream-sink.js';
import { Progress } from './progress.js';
import { type CommandQuota, openRedisQuota, type RedisOptions, redisTargetOf } from './redis.js';
import { maxRetryAfterSeconds, parseRetryAfter } from './sdk-bounds.js';
import { redactingSink, type Secrets } from './secrets.js';

/** The options of the program itself, valid before or after the command. */
export interface GlobalOptions extends RedisOptions {
  mock?: boolean;
  color?: ColorChoice;
  baseUrl?: string;
  quiet?: boolean;
  debug?: boolean;
  /** The command's own `-o`, seen here with the globals: where its records go. */
  output?: string;
}

/** What a run shares with each of its commands: the IO (its stderr masking the secrets) and the secrets. */
export interface RunIO extends IO {
  readonly secrets: Secrets;
  /**
   * What the run cuts from the answers it writes (files, databases, standard output): the API key
   * alone, the one credential the API receives, and only when long enough that no ordinary text
   * holds it. A Redis password (`admin`, `redis`) would cut words out of the data.
   */
  readonly answerSecrets: Secrets;
  /** Set once a harvest has opened its `--output` file, a checkpoint beside it: a stopped run can be resumed. */
  readonly harvest: { opened: boolean };
  /** The providers of the run's OpenTelemetry export, when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  readonly telemetry?: TelemetryOptions | undefined;
  /** Why the OTEL_ settings cannot be used, if they cannot: thrown when a command starts. */
  readonly telemetryRefusal?: unknown;
}

export interface Context {
  readonly client: MetricClient;
  readonly options: GlobalOptions;
  readonly io: RunIO;
  /** Requests sent so far (every attempt), for the progress line. */
  readonly requests: () => number;
  /** The status line on stderr (a terminal, not --quiet): progress, and requests waiting for an answer. */
  readonly progress: Progress;
  /** When the command started (`io.now()`), for the time in its last word. */
  readonly started: number;
  /** Aborts when the user presses Ctrl-C. */
  readonly signal: AbortSignal;
  /** Closes what the client holds open (the connection of `--redis`): after the command, always. */
  readonly close: () => Promise<void>;
  /**
   * Said by a command once its output is whole (a harvest's end written, its checkpoint saved): a
   * Ctrl-C after that stops nothing, and the command ends as it would have without one.
   */
  readonly complete: () => void;
  /** Whether the command said its output is whole ({@link Context.complete}). */
  readonly isComplete: () => boolean;
}

/** The message of a run with no key: what to set, and how to try without one. */
export const noKeyMessage = 'no API key: export METRIC_API_KEY=… (or try --mock)';

/** The message of a run with no base URL, said as the missing key is. */
export const noBaseUrlMessage =
  'no base URL: export METRIC_BASE_URL=https://…/api/v1 or give --base-url (or try --mock)';

/** The SDK's classes, loaded with the client (./sdk.js). */
type Sdk = typeof import('./sdk.js');

/** The client for `command`'s global options. */
export async function createContext(command: Command, io: RunIO): Promise<Context> {
  if (io.telemetryRefusal !== undefined) throw io.telemetryRefusal;
  const options = command.optsWithGlobals<GlobalOptions>();
  // The mock answers in-process: a base URL given beside it would be ignored without a word.
  if (options.mock && options.baseUrl !== undefined)
    throw new UsageError('--mock and --base-url exclude each other: give one');
  // An unset variable expanded (`--base-url "$URL"`): METRIC_BASE_URL is not read in its place.
  if (options.baseUrl === '') throw new UsageError('--base-url needs a URL, not an empty one');
  let requests = 0;
  const started = io.now();
  // Records piped to another program go to one that may share the terminal (`| less`): no line is
  // drawn over its screen, nor left among its lines when it stops reading (`| head`).
  const piped = (options.output === undefined || options.output === '-') && isPipe(io.stdout);
  // A dumb terminal (TERM=dumb: an editor's shell, a CI log) shows the line's erase as garbage.
  const dumb = io.env.TERM === 'dumb';
  const progress = Progress.for(io.stderr, options.quiet === true || piped || dumb, io.now);
  const sdk = await import('./sdk.js');
  const shared = await openSharedQuota(options, io);
  const watched = (fetch: typeof globalThis.fetch) =>
    watchedFetch(fetch, progress, () => {
      requests += 1;
    });
  let client: MetricClient;
  try {
    client = await newClient(sdk.MetricClient, options, clientOptions(options, io, shared), watched);
  } catch (error) {
    await shared?.close();
    throw refusalOf(error, options, io, sdk);
  }
  let complete = false;
  return {
    client,
    options,
    io,
    requests: () => requests,
    progress,
    started,
    signal: io.signal,
    close: async () => shared?.close(),
    complete: () => {
      complete = true;
    },
    isComplete: () => complete,
  };
}

/** The quota shared through Redis (`--redis`, `--redis-cluster`, METRIC_REDIS_URL), when one is named. */
async function openSharedQuota(options: GlobalOptions, io: RunIO): Promise<CommandQuota | undefined> {
  const redis = redisTargetOf(options, io.env);
  return redis === undefined
    ? undefined
    : await openRedisQuota(redis, options, { secrets: io.secrets, signal: io.signal });
}

/** The client's options that do not depend on whom it asks (the API, or the mock). */
function clientOptions(options: GlobalOptions, io: RunIO, shared: CommandQuota | undefined) {
  return {
    // With --redis the limits are the shared quota's: the client refuses its own beside a quota.
    ...(shared
      ? { quota: shared.quota }
      : options.maxRequestsPerMinute !== undefined && { maxRequestsPerMinute: options.maxRequestsPerMinute }),
    // The SDK reads METRIC_API_KEY, METRIC_BASE_URL and METRIC_LOG from the run's environment; the
    // key only from there, since a flag would show it in `ps` and in the shell's history.
    env: io.env,
    // The SDK's log (METRIC_LOG, or debug with --debug) on stderr: stdout holds the records. The SDK
    // redacts the key from every line.
    logger: stderrLogger(io.stderr),
    ...(options.debug && { logLevel: 'debug' as const }),
    telemetry: io.telemetry,
  };
}

/** The client of the API, or with --mock of the mock, sending through `watched(fetch)`. */
async function newClient(
  Client: Sdk['MetricClient'],
  options: GlobalOptions,
  common: ReturnType<typeof clientOptions>,
  watched: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch,
): Promise<MetricClient> {
  if (options.mock) {
    // In-process: no port, no network, no key needed.
    const { createMockApi, MOCK_API_KEY, MOCK_BASE_URL } = await import('./mock.js');
    return new Client({
      ...common,
      apiKey: MOCK_API_KEY,
      baseUrl: MOCK_BASE_URL,
      fetch: watched(createMockApi().fetch),
    });
  }
  return new Client({ ...common, baseUrl: options.baseUrl, fetch: watched(globalThis.fetch) });
}

/**
 * What the command line says of the client's refusal: a missing key or base URL as a usage error, a
 * malformed key with its usual cause. The constructor sends nothing: what it refuses is the
 * configuration the command line gave it, a `ConfigurationError` whatever the SDK's class.
 */
function refusalOf(error: unknown, options: GlobalOptions, io: RunIO, sdk: Sdk): unknown {
  const { ConfigurationError, MetricError } = sdk;
  if (!(error instanceof MetricError)) return error;
  if (!(error instanceof ConfigurationError)) return new ConfigurationError('MetricClient', error.message);
  // A value missing, the SDK names the option to pass: `apiKey`, which the command line passes only
  // with --mock, a sound key (a malformed METRIC_API_KEY is refused by that name); or `baseUrl`, the
  // name of a malformed --base-url too, so missing only when none was given.
  if (error.option === 'apiKey') return new UsageError(noKeyMessage);
  if (error.option === 'baseUrl' && options.baseUrl === undefined) return new UsageError(noBaseUrlMessage);
  if (!options.mock && error.option === 'METRIC_API_KEY')
    return keyRefusal(error, io.env.METRIC_API_KEY, ConfigurationError);
  return error;
}

/** How long a request may go unanswered before the status line says whom it waits for. */
export const waitingAfterMs = 2_000;

/**
 * `fetch` as the command line sends through it: `onSend` told of every attempt (a ky hook would cost
 * each request a merge of hooks) and, when the progress line is drawn, `progress` told which host a
 * request has waited on for `waitingAfterMs` without an answer, until one comes (a server that never
 * answers is otherwise silent up to the timeout).
 */
function watchedFetch(
  fetch: typeof globalThis.fetch,
  progress: Progress,
  onSend: () => void,
): typeof globalThis.fetch {
  if (!progress.draws)
    return async (input, init) => {
      onSend();
      return rateLimitTold(await fetch(input, init), progress);
    };
  const waiting = new Map<number, string>();
  let next = 0;
  const show = () => progress.waiting([...waiting.values()].at(-1));
  return async (input, init) => {
    onSend();
    const id = next++;
    const url = input instanceof Request ? input.url : String(input);
    const timer = setTimeout(() => {
      waiting.set(id, new URL(url).host);
      show();
    }, waitingAfterMs);
    try {
      return rateLimitTold(await fetch(input, init), progress);
    } finally {
      clearTimeout(timer);
      if (waiting.delete(id)) show();
    }
  };
}

/**
 * `response`, a 429 whose `Retry-After` the client waits out (a minute at most, as the SDK does)
 * told to `progress` first: the line counts the wait down, and a harvest saves its checkpoint before
 * the sleep. A longer one is the daily limit, which ends the command instead.
 */
function rateLimitTold(response: Response, progress: Progress): Response {
  if (response.status !== 429) return response;
  const seconds = parseRetryAfter(response.headers);
  if (seconds !== undefined && seconds <= maxRetryAfterSeconds) progress.rateLimited(Math.ceil(seconds));
  return response;
}

/**
 * The SDK's refusal of METRIC_API_KEY, with the usual cause said when it is the one: a space or a line
 * break at either end (a paste, a quoted export). Nothing of the key is quoted. `key` is read from the
 * environment the SDK was handed: its refusal carries nothing of the secret.
 */
function keyRefusal(
  error: ConfigurationError,
  key: string | undefined,
  refusal: typeof ConfigurationError,
): ConfigurationError {
  const padded = key !== undefined && key.trim() !== key;
  const cause = padded ? ' (it starts or ends with a space or a line break: export it without them)' : '';
  return new refusal('METRIC_API_KEY', `${error.message}${cause}`);
}

/**
 * The sink for `--output` (cut back to `from` bytes), or standard output. `writes` is what the sink
 * will hold: a database or Parquet file already there is refused unless it is of that format.
 */
export async function openSink(
  io: RunIO,
  output: string | undefined,
  from = 0,
  writes: 'text' | 'parquet' = 'text',
): Promise<Sink> {
  // The sink reads only write(), 'drain', isTTY and columns of the stream.
  if (output === undefined)
    return redactingSink(stdoutSink(io.stdout as NodeJS.WriteStream), io.answerSecrets);
  await refuseOtherDatabase(output, writes);
  try {
    const stream = await streamKind(output);
    const sink =
      stream === undefined ? await fileSink(output, from) : await streamSink(output, stream, io.signal);
    return redactingSink(sink, io.answerSecrets);
  } catch (error) {
    // Ctrl-C while a FIFO waits for its reader stops the command as Ctrl-C does.
    if (error === io.signal.reason) throw error;
    throw cannotWrite(UsageError, '--output', output, error);
  }
}

function stderrLogger(stderr: NodeJS.WritableStream) {
  const line = (message: string, details?: unknown) => {
    stderr.write(`${message}${details === undefined ? '' : ` ${JSON.stringify(details)}`}\n`);
  };
  return { error: line, warn: line, info: line, debug: line };
}
