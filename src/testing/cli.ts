#!/usr/bin/env node
/**
 * `scholarly-metrics-mock`: serves the mock API on loopback until stopped.
 *
 * The first line of standard output is the base URL alone; everything meant for people goes to
 * standard error. With `-- <command>`, it runs the command against the mock instead (with
 * METRIC_BASE_URL and METRIC_API_KEY set), stops when the command ends and exits with its code:
 * `$(scholarly-metrics-mock | head -n1)` cannot work, since the server never ends on its own.
 *
 * @example
 * ```sh
 * npx scholarly-metrics-mock --port 4010 --per-minute 60 --webhook http://127.0.0.1:8080/hooks
 * npx scholarly-metrics-mock --port 0 -- npm run test:e2e
 * npx scholarly-metrics-mock --control-origin http://localhost:5173
 * ```
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { MOCK_API_KEY, MOCK_ELITE_API_KEY, MOCK_NO_ACCESS_API_KEY } from './constants.js';
import { MOCK_MAX_DELAY_MS, type MockFaultOptions } from './faults.js';
import { MOCK_MAX_SIZES } from './generate.js';
import type { MockLimits } from './rate-limit.js';
import { type MockServer, type MockServerOptions, startMockServer } from './server.js';

const usage = `Usage: scholarly-metrics-mock [options] [-- <command> [args...]]

Serves a deterministic mock of the Scholarly Metrics API v1 on 127.0.0.1.
With -- <command>: runs the command with METRIC_BASE_URL and METRIC_API_KEY set,
stops when it ends, and exits with its exit code.

Options:
  --port <n>            port to listen on, 0 for a free one (default 4010)
  --host <addr>         interface to bind (default 127.0.0.1; any other address is warned about)
  --seed <n>            dataset seed (default 42)
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

const optionSpecs = {
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

type Values = ReturnType<typeof parseArgs<{ options: typeof optionSpecs }>>['values'];

function main(): void {
  // Everything after the first `--` is the command to run; parseArgs sees only the mock's options.
  const argv = process.argv.slice(2);
  const split = argv.indexOf('--');
  const command = split === -1 ? [] : argv.slice(split + 1);
  if (split !== -1 && command.length === 0) fail('-- must be followed by a command to run');
  const { values } = parseArgs({ args: split === -1 ? argv : argv.slice(0, split), options: optionSpecs });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  startMockServer(serverOptions(values)).then(
    (server) => (command.length > 0 ? runCommand(server, command) : serve(server, values)),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      fail(message.includes('EADDRINUSE') ? `${message}: pick another --port, or 0 for a free one` : message);
    },
  );
}

/** The server's options from the command line's values; a bad one is a usage error. */
function serverOptions(values: Values): MockServerOptions {
  const limits: MockLimits = {
    ...(values['per-minute'] !== undefined && { perMinute: integer(values['per-minute'], '--per-minute') }),
    ...(values['per-day'] !== undefined && { perDay: integer(values['per-day'], '--per-day') }),
    ...(values['per-window'] !== undefined && { perWindow: perWindow(values['per-window']) }),
  };
  const rateOf = (flag: 'error-rate' | 'reset-rate' | 'malformed-rate') =>
    values[flag] === undefined ? undefined : rate(values[flag], `--${flag}`);
  const faults: MockFaultOptions = {
    ...(values.latency !== undefined && { latencyMs: latency(values.latency) }),
    ...(values['error-rate'] !== undefined && { errorRate: rateOf('error-rate') }),
    ...(values['reset-rate'] !== undefined && { resetRate: rateOf('reset-rate') }),
    ...(values['malformed-rate'] !== undefined && { malformedRate: rateOf('malformed-rate') }),
  };
  const size = (kind: 'journals' | 'papers' | 'authors') =>
    values[kind] === undefined ? {} : { [kind]: integer(values[kind], `--${kind}`, MOCK_MAX_SIZES[kind]) };
  return {
    port: integer(values.port, '--port'),
    host: values.host,
    ...(values.seed !== undefined && { seed: integer(values.seed, '--seed') }),
    sizes: { ...size('journals'), ...size('papers'), ...size('authors') },
    limits,
    faults,
    webhooks: { urls: values.webhook ?? [] },
    control: !values['no-control'],
    controlOrigins: (values['control-origin'] ?? []).map(controlOrigin),
  };
}

/** Says where the mock listens (the URL alone on stdout, the rest on stderr) and stops on a signal. */
function serve(server: MockServer, values: Values): void {
  process.stdout.write(`${server.url}\n`);
  const origin = new URL(server.url).origin;
  process.stderr.write(
    [
      '',
      'Scholarly Metrics mock API is listening.',
      `  base URL           ${server.url}`,
      `  key (Professional) ${MOCK_API_KEY}`,
      `  key (Elite)        ${MOCK_ELITE_API_KEY}`,
      `  key (Basic, 403)   ${MOCK_NO_ACCESS_API_KEY}`,
      values['no-control'] ? '' : `  control            ${origin}/__mock/ (score, webhooks, faults, reset)`,
      ...(values['control-origin'] ?? []).map((page) => `  control from page  ${page}`),
      '',
      `  export METRIC_BASE_URL=${server.url} METRIC_API_KEY=${MOCK_API_KEY}`,
      '',
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Runs `command` against the server; closes it and exits with the command's code once it ends. */
function runCommand(server: MockServer, command: string[]): void {
  const child = spawn(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, METRIC_BASE_URL: server.url, METRIC_API_KEY: MOCK_API_KEY },
  });
  // A signal meant for the mock is meant for the command too: the command must never outlive it.
  // Listening before anything is printed: a signal sent as soon as the mock speaks is passed on.
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  process.stderr.write(`scholarly-metrics-mock: ${server.url} for: ${command.join(' ')}\n`);
  let done = false;
  const finish = (status: number): void => {
    if (done) return;
    done = true;
    void server.close().then(() => process.exit(status));
  };
  child.once('error', (error) => {
    process.stderr.write(`scholarly-metrics-mock: cannot run ${command[0]}: ${error.message}\n`);
    finish(127);
  });
  // As a shell reports it: the exit code, or 128 + the number of the signal that ended the command.
  child.once('exit', (code, signal) => finish(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

function integer(raw: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(raw)) fail(`${flag} expects a non-negative integer, got '${raw}'`);
  // Past the maximum, a usage error now rather than an out-of-memory abort or an overflowing timer later.
  if (Number(raw) > max) fail(`${flag} can be at most ${max}, got ${raw}`);
  return Number(raw);
}

/** A page origin as a browser sends it (`http://localhost:5173`), or `*`; anything else is a usage error. */
function controlOrigin(raw: string): string {
  if (raw === '*') return raw;
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (
    parsed === undefined ||
    !/^https?:$/.test(parsed.protocol) ||
    parsed.origin !== raw.replace(/\/$/, '')
  ) {
    fail(`--control-origin expects an origin such as http://localhost:5173, or *, got '${raw}'`);
  }
  return parsed.origin;
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

function fail(message: string): never {
  process.stderr.write(`scholarly-metrics-mock: ${message}\n\n${usage}`);
  process.exit(2);
}

try {
  main();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
