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
import { ConfigurationError } from '../core/errors.js';
import { flagMessage, optionSpecs, serverOptions, usage } from './cli-options.js';
import { MOCK_API_KEY, MOCK_ELITE_API_KEY, MOCK_NO_ACCESS_API_KEY } from './constants.js';
import { type MockServer, type MockServerOptions, startMockServer } from './server.js';

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
  const options = serverOptions(values);
  startMockServer(options).then(
    (server) => (command.length > 0 ? runCommand(server, command) : serve(server, options)),
    (error: unknown) => {
      // The library checks what the CLI leaves to it (the port's range, the rates' sum): a usage
      // error, in the flags' words. Anything else happened while starting, with valid arguments.
      if (error instanceof ConfigurationError) fail(flagMessage(error));
      process.stderr.write(`scholarly-metrics-mock: ${startFailure(error, options)}\n`);
      process.exit(1);
    },
  );
}

/** Why the server could not listen, in one line that names the port or host at fault. */
function startFailure(error: unknown, { host, port }: MockServerOptions): string {
  const { code, message } =
    error instanceof Error ? (error as NodeJS.ErrnoException) : { message: String(error) };
  const reasons: Record<string, string> = {
    EADDRINUSE: `port ${port} on ${host} is in use: pick another --port, or 0 for a free one`,
    EADDRNOTAVAIL: `cannot listen on --host ${host}: no interface of this machine has that address`,
    ENOTFOUND: `cannot listen on --host ${host}: no such host name`,
    EAI_AGAIN: `cannot listen on --host ${host}: its name could not be resolved now (EAI_AGAIN)`,
    EACCES: `not allowed to listen on port ${port}: pick one above 1023, or 0 for a free one`,
  };
  return (code !== undefined && reasons[code]) || `cannot listen on ${host}:${port}: ${message}`;
}

/** Says where the mock listens (the URL alone on stdout, the rest on stderr) and stops on a signal. */
function serve(server: MockServer, options: MockServerOptions): void {
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
      options.control ? `  control            ${origin}/__mock/ (score, webhooks, faults, reset)` : '',
      ...(options.controlOrigins ?? []).map((page) => `  control from page  ${page}`),
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
  process.on('SIGHUP', forward);
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

function fail(message: string): never {
  process.stderr.write(`scholarly-metrics-mock: ${message}\n\n${usage}`);
  process.exit(2);
}

try {
  main();
} catch (error) {
  // Ours (UsageError) and parseArgs's (an unknown flag, a missing value) alike.
  fail(error instanceof Error ? error.message : String(error));
}
