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

/** Whether `error` is the end of a run that Ctrl-C (`signal`) stopped. */
export function stoppedBy(signal: AbortSignal, error: unknown): boolean {
  return signal.aborted && (error instanceof RequestAbortedError || error instanceof InterruptedError);
}

/** The exit code for `error`. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof InvalidParameterError) return exitCodes.usage;
  if (error instanceof InterruptedError) return exitCodes.interrupted;
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
    /** Where the proxy variables are read: Node's own fetch takes them from the process's environment. */
    env?: ProxyEnv;
  },
): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const lines = [error instanceof UsageError ? `error: ${message}` : `error: ${name}: ${message}`];
  // --quiet keeps the error itself (what failed) and drops the advice.
  const hint = options.quiet
    ? undefined
    : hintFor(error, options.now ?? Date.now(), options.baseUrl, options.resume === true, options.env);
  if (hint !== undefined) lines.push(`hint: ${hint}`);
  if (options.debug && error instanceof APIError && error.body !== undefined)
    lines.push(bodyLine(error.body));
  if (options.debug && error instanceof Error && error.stack) lines.push(error.stack);
  return `${lines.join('\n')}\n`;
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
  env: ProxyEnv = process.env,
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
 * The hint for a request that got no answer from the API: the proxy's refusal when one refused
 * (Node's tunnel and undici's `ProxyAgent` say its status), the proxy the requests went through, a
 * proxy variable Node ignores, else the base URL (most often a typo, or a server that is not running).
 */
function connectionHint(
  error: ConnectionError,
  baseUrl: string | undefined,
  env: ProxyEnv,
): string | undefined {
  // No base URL: the built-in mock, which sends nothing over the network.
  if (baseUrl === undefined) return undefined;
  const proxy = proxyFor(baseUrl, env);
  const named = proxy === undefined ? 'the proxy' : `the proxy ${proxy.origin} (${proxy.variable})`;
  const refusal = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(error.message);
  const status = refusal?.[1] ?? refusal?.[2];
  if (status === '407') {
    return proxy?.credentials
      ? `${named} refused its user and password (407): check them in ${proxy.variable}`
      : `${named} asks for a user and password (407): set ${proxy?.variable ?? 'HTTPS_PROXY'}=http://user:password@host:port`;
  }
  if (status !== undefined) {
    return `${named} refused the tunnel to ${hostAndPort(baseUrl)} (${status}): ask its administrator to allow it, or list the host in NO_PROXY if it is reachable directly`;
  }
  if (proxy !== undefined && envProxyOn(env) && !bypassed(baseUrl, env))
    return `check ${named}, and --base-url or METRIC_BASE_URL (now: ${baseUrl})`;
  // Set for curl and the like, but Node's fetch goes direct: where only the proxy reaches out, nothing does.
  if (proxy !== undefined && !envProxyOn(env) && !isLoopback(baseUrl)) {
    return `Node ignores ${proxy.variable} unless started with NODE_USE_ENV_PROXY=1 (Node 22.21 or later): run NODE_USE_ENV_PROXY=1 scholarly-metrics …`;
  }
  return `check --base-url or METRIC_BASE_URL (now: ${baseUrl})`;
}

/** The variables Node reads its proxy from with `NODE_USE_ENV_PROXY=1`. */
type ProxyEnv = Readonly<Record<string, string | undefined>>;

/**
 * The proxy variable for `url`'s scheme, the lower-case name first as Node reads them: its name and
 * the proxy's origin, which leaves out the user and password (never shown).
 */
function proxyFor(
  url: string,
  env: ProxyEnv,
): { variable: string; origin: string; credentials: boolean } | undefined {
  const scheme = parsed(url)?.protocol === 'http:' ? 'http' : 'https';
  for (const variable of [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`]) {
    const value = env[variable];
    if (!value) continue;
    const proxy = parsed(value);
    if (proxy === undefined) return undefined;
    return {
      variable,
      origin: terminalSafe(`${proxy.protocol}//${proxy.host}`),
      credentials: proxy.username !== '',
    };
  }
  return undefined;
}

/** Whether Node's fetch reads the proxy variables: `NODE_USE_ENV_PROXY=1` or `--use-env-proxy`. */
function envProxyOn(env: ProxyEnv): boolean {
  return env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');
}

/** Whether NO_PROXY sends `url` direct, matched as undici matches it (`*`, a host, `.suffix`, a port). */
function bypassed(url: string, env: ProxyEnv): boolean {
  const target = parsed(url);
  if (target === undefined) return false;
  const port = target.port || (target.protocol === 'http:' ? '80' : '443');
  const entries = (env.no_proxy ?? env.NO_PROXY ?? '').split(/[,\s]+/).filter(Boolean);
  return entries.some((entry) => {
    if (entry === '*') return true;
    const [host = '', entryPort] = entry.split(/:(?=\d+$)/);
    if (entryPort !== undefined && entryPort !== port) return false;
    return /^[.*]/.test(host) ? target.hostname.endsWith(host.replace(/^\*/, '')) : target.hostname === host;
  });
}

function isLoopback(url: string): boolean {
  const host = parsed(url)?.hostname;
  return host === 'localhost' || host === '[::1]' || host?.startsWith('127.') === true;
}

function hostAndPort(url: string): string {
  const target = parsed(url);
  if (target === undefined) return 'the API';
  return terminalSafe(`${target.hostname}:${target.port || (target.protocol === 'http:' ? '80' : '443')}`);
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The API lives under `/api/v1`: a base URL whose path lacks it gets the URL it likely meant. */
export function apiPathHint(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (/\/api\/v1\/?$/.test(url.pathname)) return undefined;
  const suggested = `${url.origin}${url.pathname.replace(/\/+$/, '')}/api/v1`;
  return terminalSafe(`the API lives under /api/v1: try --base-url ${suggested}`);
}

/**
 * When to run again after a rate limit the SDK would not wait for; with `resume`, the run again is
 * the same command with `--resume` (without it, an unfinished `--output` is refused).
 */
export function runAgainLine(retryAfter: number | undefined, now: number, resume = false): string {
  const again = resume ? 'run the same command with --resume' : 'run the same command again';
  const at = new Date(now + (retryAfter ?? Number.NaN) * 1000);
  // The SDK keeps retryAfter finite and within a day; a RateLimitError made elsewhere may not.
  if (retryAfter === undefined || retryAfter < 0 || Number.isNaN(at.getTime()))
    return `the rate limit will not clear soon: ${again} later`;
  const when = at.toISOString().replace(/\.\d+Z$/, 'Z');
  return `the rate limit clears in ${duration(retryAfter)}: ${again} after ${when}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min`;
  const hours = Math.floor(seconds / 3600);
  return `${hours} h ${Math.ceil((seconds - hours * 3600) / 60)} min`;
}
