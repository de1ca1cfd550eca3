#!/usr/bin/env node
/**
 * `scholarly-metrics`: the Scholarly Metrics API from a shell, built on the SDK (its retries and
 * limits apply). This file and everything under src/cli are loaded by the bin alone: the library's
 * entries never import them, nor commander, csv-stringify or asciichart.
 *
 * @example
 * ```sh
 * npx scholarly-metrics --mock journals list
 * npx scholarly-metrics papers search --q climate --all --format jsonl --output climate.jsonl --resume
 * ```
 */
import { CommanderError } from 'commander';
import { RequestAbortedError } from '../core/errors.js';
import { VERSION } from '../core/user-agent.js';
import { interrupt } from './action.js';
import { describeError, exitCodeOf, exitCodes, InterruptedError } from './errors.js';
import { createProgram } from './program.js';
import { redact } from './redis.js';

async function main(argv: string[]): Promise<number> {
  const program = createProgram(VERSION);
  // The first Ctrl-C stops the walk at the next await, keeping the checkpoint; a second one quits now.
  process.once('SIGINT', () => {
    interrupt.abort(new InterruptedError('interrupted'));
    process.once('SIGINT', () => process.exit(exitCodes.interrupted));
  });
  // A reader that goes away (`| head`) is not an error of this command.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(exitCodes.ok);
    throw error;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the message already; help and --version end with 0.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    const debug = program.opts<{ debug?: boolean }>().debug === true || argv.includes('--debug');
    const stopped =
      interrupt.signal.aborted && (error instanceof RequestAbortedError || error instanceof InterruptedError);
    const reported = stopped ? new InterruptedError(resumeHint(argv)) : error;
    process.stderr.write(redact(describeError(reported, { debug })));
    return exitCodeOf(reported);
  }
}

function resumeHint(argv: string[]): string {
  const output = argv.includes('--output') || argv.includes('-o');
  return output
    ? 'stopped by Ctrl-C: run the same command with --resume to continue where it stopped'
    : 'stopped by Ctrl-C';
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(redact(describeError(error, { debug: true })));
    process.exitCode = exitCodes.failed;
  },
);
