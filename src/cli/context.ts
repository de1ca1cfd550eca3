/**
 * What every command needs from the global options: a client (of the API named by the environment,
 * or of the built-in mock), a count of the requests it sends, and where to write.
 */
import type { Command } from 'commander';
import type { MetricClient } from '../client.js';
import { UsageError } from './errors.js';
import { fileSink, type Sink, stdoutSink } from './output/sink.js';
import { openRedisQuota, type RedisOptions, redact, redisUrlOf } from './redis.js';

/** The options of the program itself, valid before or after the command. */
export interface GlobalOptions extends RedisOptions {
  mock?: boolean;
  baseUrl?: string;
  quiet?: boolean;
  debug?: boolean;
}

export interface Context {
  readonly client: MetricClient;
  readonly options: GlobalOptions;
  /** Requests sent so far (every attempt), for the progress line. */
  readonly requests: () => number;
  /** Aborts when the user presses Ctrl-C. */
  readonly signal: AbortSignal;
  /** Closes what the client holds open (the connection of `--redis`): after the command, always. */
  readonly close: () => Promise<void>;
}

/** The client for `command`'s global options. */
export async function createContext(command: Command, signal: AbortSignal): Promise<Context> {
  const options = command.optsWithGlobals<GlobalOptions>();
  let requests = 0;
  const { MetricClient } = await import('../client.js');
  const redisUrl = redisUrlOf(options);
  const shared = redisUrl === undefined ? undefined : await openRedisQuota(redisUrl, options);
  const common = {
    // With --redis the limits are the shared quota's: the client refuses its own beside a quota.
    ...(shared
      ? { quota: shared.quota }
      : options.maxRequestsPerMinute !== undefined && { maxRequestsPerMinute: options.maxRequestsPerMinute }),
    hooks: {
      beforeRequest: [
        () => {
          requests += 1;
        },
      ],
    },
    // The SDK's log (METRIC_LOG, or debug with --debug) on stderr: stdout holds the records. The SDK
    // redacts the key from every line.
    logger: stderrLogger,
    ...(options.debug && { logLevel: 'debug' as const }),
  };
  let client: MetricClient;
  try {
    client = await newClient();
  } catch (error) {
    await shared?.close();
    throw error;
  }
  const close = async () => shared?.close();
  return { client, options, requests: () => requests, signal, close };

  async function newClient(): Promise<MetricClient> {
    if (options.mock) {
      // In-process: no port, no network, no key needed.
      const { createMockApi } = await import('../testing/mock-api.js');
      const { MOCK_API_KEY, MOCK_BASE_URL } = await import('../testing/constants.js');
      return new MetricClient({
        ...common,
        apiKey: MOCK_API_KEY,
        baseUrl: MOCK_BASE_URL,
        fetch: createMockApi().fetch,
      });
    } else {
      // The key only from METRIC_API_KEY: a flag would show it in `ps` and in the shell's history.
      return new MetricClient({
        ...common,
        ...(options.baseUrl !== undefined && { baseUrl: options.baseUrl }),
      });
    }
  }
}

/** The sink for `--output` (cut back to `from` bytes), or standard output. */
export async function openSink(output: string | undefined, from = 0): Promise<Sink> {
  if (output === undefined) return stdoutSink();
  if (output === '-') throw new UsageError('--output - is standard output: leave --output out instead');
  try {
    return await fileSink(output, from);
  } catch (error) {
    throw new UsageError(`cannot write --output ${output}: ${(error as Error).message}`);
  }
}

const stderrLogger = {
  error: (message: string, details?: unknown) => logLine(message, details),
  warn: (message: string, details?: unknown) => logLine(message, details),
  info: (message: string, details?: unknown) => logLine(message, details),
  debug: (message: string, details?: unknown) => logLine(message, details),
};

function logLine(message: string, details: unknown): void {
  process.stderr.write(redact(`${message}${details === undefined ? '' : ` ${JSON.stringify(details)}`}\n`));
}
