/*
 * The command line of `scholarly-metrics-mock` (cli.ts) turned into the server's options, and the
 * library's refusals of them told in the command line's own flags.
 */
import type { parseArgs } from 'node:util';
import type { ConfigurationError } from '../core/errors.js';
import { MOCK_MAX_DELAY_MS, type MockFaultOptions } from './faults.js';
import { MOCK_MAX_SIZES } from './generate.js';
import { resolveMockServerOptions } from './mock-api-options.js';
import type { MockLimits } from './rate-limit.js';
import type { MockServerOptions } from './server.js';

export const usage = `Usage: scholarly-metrics-mock [options] [-- <command> [args...]]

Serves a deterministic mock of the Scholarly Metrics API v1 on 127.0.0.1.
With -- <command>: runs the command with METRIC_BASE_URL and METRIC_API_KEY set,
stops when it ends, and exits with its exit code.

Options:
  --port <n>            port to listen on, 0 for a free one (default 4010)
  --host <addr>         interface to bind (default 127.0.0.1; any other address is warned about)
  --seed <n>            seed of the dataset and of the random faults (default 42 and 1)
  --journals <n>        number of journals (default 400, at most 10000)
  --papers <n>          number of papers (default 30000, at most 1000000)
  --authors <n>         number of authors (default 3000, at most 100000)
  --per-minute <n>      requests per key per minute before 429 (default: no limit)
  --per-day <n>         requests per key per UTC day before 429 (default: no limit)
  --per-window <n>/<ms> n requests per key per window of ms before 429, e.g. 5/2000 (default: no limit)
  --latency <ms>        delay every answer; <min>-<max> for a random range (default 0, at most 600000)
  --error-rate <0..1>   share of requests answered 500 (default 0)
  --reset-rate <0..1>   share of requests whose connection drops (default 0)
  --malformed-rate <r>  share of requests with a truncated JSON body (default 0)
  --webhook <url>       POST score_updated events here (repeatable)
  --no-control          do not serve the /__mock/ control endpoints
  --control-origin <o>  a web page origin allowed to call the control endpoints, e.g.
                        http://localhost:5173, or * for every page (repeatable; default: none)
  -h, --help            show this help
`;

export const optionSpecs = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  seed: { type: 'string' },
  journals: { type: 'string' },
  papers: { type: 'string' },
  authors: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-day': { type: 'string' },
  'per-window': { type: 'string' },
  latency: { type: 'string' },
  'error-rate': { type: 'string' },
  'reset-rate': { type: 'string' },
  'malformed-rate': { type: 'string' },
  webhook: { type: 'string', multiple: true },
  'no-control': { type: 'boolean', default: false },
  'control-origin': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The values parseArgs gives for {@link optionSpecs}. */
export type Values = ReturnType<typeof parseArgs<{ options: typeof optionSpecs }>>['values'];

/** A command line the mock cannot run with: cli.ts prints the message with the usage and exits 2. */
function fail(message: string): never {
  throw new Error(message);
}

/** The server's options from the command line's values; a bad one throws (a usage error). */
export function serverOptions(values: Values): MockServerOptions {
  if (values['no-control'] && values['control-origin'] !== undefined) {
    fail('--control-origin has no use with --no-control: there are no control endpoints to call');
  }
  const limits: MockLimits = {
    ...(values['per-minute'] !== undefined && { perMinute: integer(values['per-minute'], '--per-minute') }),
    ...(values['per-day'] !== undefined && { perDay: integer(values['per-day'], '--per-day') }),
    ...(values['per-window'] !== undefined && { perWindow: perWindow(values['per-window']) }),
  };
  const seed = values.seed === undefined ? undefined : safeInteger(values.seed, '--seed');
  const rateOf = (flag: 'error-rate' | 'reset-rate' | 'malformed-rate') =>
    values[flag] === undefined ? undefined : rate(values[flag], `--${flag}`);
  // One seed for all that is drawn: `--seed 7 --error-rate 0.1` replays the same faults, as the
  // same data; without --seed each keeps the library's default.
  const faults: MockFaultOptions = {
    ...(values.latency !== undefined && { latencyMs: latency(values.latency) }),
    ...(values['error-rate'] !== undefined && { errorRate: rateOf('error-rate') }),
    ...(values['reset-rate'] !== undefined && { resetRate: rateOf('reset-rate') }),
    ...(values['malformed-rate'] !== undefined && { malformedRate: rateOf('malformed-rate') }),
    ...(seed !== undefined && { seed }),
  };
  const size = (kind: 'journals' | 'papers' | 'authors') =>
    values[kind] === undefined ? {} : { [kind]: integer(values[kind], `--${kind}`, MOCK_MAX_SIZES[kind]) };
  return {
    port: integer(values.port, '--port'),
    host: values.host,
    ...(seed !== undefined && { seed }),
    sizes: { ...size('journals'), ...size('papers'), ...size('authors') },
    limits,
    faults,
    webhooks: { urls: values.webhook ?? [] },
    control: !values['no-control'],
    controlOrigins: (values['control-origin'] ?? []).map(controlOrigin),
  };
}

/**
 * The flag that set each option the library may refuse. Where the library's sentence would still
 * speak its own syntax (several options summed, a `[min, max]` range), the CLI has a sentence of its own.
 */
const flagOf: Readonly<Record<string, string>> = {
  port: '--port',
  host: '--host',
  seed: '--seed',
  'faults.seed': '--seed',
  'sizes.journals': '--journals',
  'sizes.papers': '--papers',
  'sizes.authors': '--authors',
  'limits.perMinute': '--per-minute',
  'limits.perDay': '--per-day',
  'limits.perWindow.requests': '--per-window',
  'limits.perWindow.windowMs': '--per-window',
  'faults.errorRate': '--error-rate',
  'faults.resetRate': '--reset-rate',
  'faults.malformedRate': '--malformed-rate',
  controlOrigins: '--control-origin',
};
const ownMessage: Readonly<Record<string, string>> = {
  'faults.latencyMs': '--latency expects <ms> or <min>-<max> with min <= max',
  'webhooks.urls': '--webhook expects an absolute http(s) URL, without a user or password',
  faults: '--error-rate + --reset-rate + --malformed-rate must not exceed 1',
  sizes: '--papers above 0 needs --journals and --authors above 0',
};

/** The library's refusal in the command line's words: `port` becomes --port, and so on. */
export function flagMessage(error: ConfigurationError): string {
  const own = ownMessage[error.option];
  if (own !== undefined) return own;
  const flag = flagOf[error.option];
  if (flag === undefined) return error.message;
  const named = `\`${error.option}\``;
  return error.message.includes(named) ? error.message.replaceAll(named, flag) : `${flag}: ${error.message}`;
}

function integer(raw: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(raw)) fail(`${flag} expects a non-negative integer, got '${raw}'`);
  // Past the maximum, a usage error now rather than an out-of-memory abort or an overflowing timer later.
  if (Number(raw) > max) fail(`${flag} can be at most ${max}, got ${raw}`);
  return Number(raw);
}

/** A seed: any safe integer, negative too, as the library's `seed` takes. */
function safeInteger(raw: string, flag: string): number {
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    fail(
      `${flag} expects an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, got '${raw}'`,
    );
  }
  return Number(raw);
}

/**
 * A page origin, or `*`, normalised as startMockServer() does (`http://localhost:80` is
 * `http://localhost`). Stricter than the library: a path, query or user is refused rather than
 * dropped, since it says the flag was given a page's URL where a browser's `Origin` was meant.
 */
function controlOrigin(raw: string): string {
  let origin: string | undefined;
  try {
    [origin] = resolveMockServerOptions({ controlOrigins: [raw] }).controlOrigins;
  } catch {
    origin = undefined;
  }
  if (origin === undefined || (origin !== '*' && new URL(raw).href !== `${origin}/`)) {
    fail(`--control-origin expects an origin such as http://localhost:5173, or *, got '${raw}'`);
  }
  return origin;
}

function rate(raw: string, flag: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !(value >= 0 && value <= 1))
    fail(`${flag} expects a number from 0 to 1, got '${raw}'`);
  return value;
}

function perWindow(raw: string): { requests: number; windowMs: number } {
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  if (match === null || Number(match[2]) === 0) {
    fail(`--per-window expects <requests>/<ms> with ms > 0, e.g. 5/2000, got '${raw}'`);
  }
  return { requests: Number(match[1]), windowMs: Number(match[2]) };
}

function latency(raw: string): number | [number, number] {
  const match = /^([^-]*)(?:-([^-]*))?$/.exec(raw);
  if (match === null) fail(`--latency expects <ms> or <min>-<max>, got '${raw}'`);
  const [, min = '', max] = match;
  if (max === undefined) return integer(raw, '--latency', MOCK_MAX_DELAY_MS);
  return [integer(min, '--latency', MOCK_MAX_DELAY_MS), integer(max, '--latency', MOCK_MAX_DELAY_MS)];
}
