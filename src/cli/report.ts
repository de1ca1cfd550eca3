/**
 * The exit code and the one-line report of an error that ends a run: loaded when there is one, as it
 * knows the SDK's errors (which load with the client).
 */
import {
  APIError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InvalidParameterError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  ResponseValidationError,
} from '../index.js';
import { exitCodes, InterruptedError, PartialFailureError, UsageError } from './errors.js';
import { terminalSafe } from './output/escape.js';
import { connectionHint, type ProxyEnv } from './proxy-hint.js';

/** Whether `error` is the end of a run that Ctrl-C (`signal`) stopped. */
export function stoppedBy(signal: AbortSignal, error: unknown): boolean {
  return signal.aborted && (error instanceof RequestAbortedError || error instanceof InterruptedError);
}

/** The exit code for `error`. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof InvalidParameterError) return exitCodes.usage;
  if (error instanceof InterruptedError) return error.exitCode;
  if (error instanceof RateLimitError) return exitCodes.rateLimited;
  if (error instanceof PartialFailureError) return exitCodes.partial;
  // The client refusing its configuration (a malformed base URL, METRIC_LOG): the message names what
  // to set, as for a usage error.
  if (error instanceof ConfigurationError) return exitCodes.usage;
  return exitCodes.failed;
}

/**
 * The lines written to stderr for `error`: `error: <ErrorClass>: <message>` (a usage error: `error:
 * <message>`, as commander writes its own), then a hint where one helps, then (with `--debug`) the
 * body the server sent, escaped, and the stack.
 */
export function describeError(
  error: unknown,
  options: {
    debug: boolean;
    now?: number;
    baseUrl?: string | undefined;
    quiet?: boolean;
    /** The command continues only with `--resume`, which it was not given. */
    resume?: boolean;
    /** A harvest had opened its file: a run that failed continues where it stopped. */
    resumable?: boolean;
    /** The run's environment, where Node's fetch read its proxy variables. @default {} */
    env?: ProxyEnv;
  },
): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const lines = [error instanceof UsageError ? `error: ${message}` : `error: ${name}: ${message}`];
  // --quiet keeps the error itself (what failed) and drops the advice.
  const hint = options.quiet
    ? undefined
    : hintFor(error, options.now ?? Date.now(), options.baseUrl, options.resume === true, options.env ?? {});
  if (hint !== undefined) lines.push(`hint: ${hint}`);
  if (!options.quiet && options.resumable && failedMidway(error))
    lines.push(`hint: ${runAgain(options.resume === true)} to continue where it stopped`);
  if (options.debug && error instanceof APIError && error.body !== undefined)
    lines.push(bodyLine(error.body));
  if (options.debug && error instanceof Error && error.stack) lines.push(error.stack);
  return `${lines.join('\n')}\n`;
}

/**
 * Whether `error` ended a run partway, one its file lets continue: not one refused before it began,
 * nor one stopped or rate-limited (whose own words say how to go on), nor some lookups failed with the
 * rest written.
 */
function failedMidway(error: unknown): boolean {
  const refused = [UsageError, ConfigurationError, InvalidParameterError];
  const told = [InterruptedError, RateLimitError, PartialFailureError];
  return ![...refused, ...told].some((kind) => error instanceof kind);
}

const maxBodyLength = 4096;

/** `body: {…}`: the parsed body as JSON (a text body as it came), escaped for the terminal and cut short. */
function bodyLine(body: unknown): string {
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body));
  const shown = text.length > maxBodyLength ? `${text.slice(0, maxBodyLength)}…` : text;
  return `body: ${terminalSafe(shown)}`;
}

function hintFor(
  error: unknown,
  now: number,
  baseUrl: string | undefined,
  resume: boolean,
  env: ProxyEnv,
): string | undefined {
  if (error instanceof AuthenticationError) {
    return 'set METRIC_API_KEY to your API key (or try the command with --mock)';
  }
  if (error instanceof PermissionDeniedError) {
    return "the key's plan does not include API access: set METRIC_API_KEY to the key of a plan that includes it";
  }
  if (error instanceof RateLimitError) return runAgainLine(error.retryAfter, now, resume);
  if (error instanceof ConnectionError) return connectionHint(error, baseUrl, env);
  // A 404 (or a page that is not the API's JSON) from a base URL that stops at the host.
  if ((error instanceof NotFoundError || error instanceof ResponseValidationError) && baseUrl !== undefined)
    return apiPathHint(baseUrl);
  return undefined;
}

/**
 * The API lives under `/api/v1`: a base URL whose path lacks it gets the URL it likely meant, its
 * path with `/api/v1` in place of an `/api` or `/api/vN` it ends with (`/api/api/v1` is no API's).
 */
export function apiPathHint(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/(?<!\/)\/+$/, '');
  if (path.endsWith('/api/v1')) return undefined;
  const suggested = `${url.origin}${path.replace(/\/api(\/v\d+)?$/, '')}/api/v1`;
  return terminalSafe(`the API lives under /api/v1: try --base-url ${suggested}`);
}

/**
 * When to run again after a rate limit the SDK would not wait for; with `resume`, the run again is
 * the same command with `--resume` (without it, an unfinished `--output` is refused).
 */
export function runAgainLine(retryAfter: number | undefined, now: number, resume = false): string {
  const again = runAgain(resume);
  const at = new Date(now + (retryAfter ?? Number.NaN) * 1000);
  // No Retry-After (or none the SDK could read): 429s that outlasted its retries, for how long unsaid.
  // The SDK keeps retryAfter finite and within a day; a RateLimitError made elsewhere may not.
  if (retryAfter === undefined || retryAfter < 0 || Number.isNaN(at.getTime()))
    return `the API did not say when the rate limit clears: ${again} later`;
  const when = at.toISOString().replace(/\.\d+Z$/, 'Z');
  return `the rate limit clears in ${duration(retryAfter)}: ${again} after ${when}`;
}

/** How a run goes on: the same command, with `--resume` when it continues only with it (`resume`). */
const runAgain = (resume: boolean) =>
  resume ? 'run the same command with --resume' : 'run the same command again';

/** `45 s`, `2 min`, `1 h 5 min`: rounded up to whole minutes first, so never `1 h 60 min`. */
function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
