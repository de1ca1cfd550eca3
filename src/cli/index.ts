#!/usr/bin/env node
/**
 * `scholarly-metrics`: the Scholarly Metrics API from a shell, built on the SDK (its retries and
 * limits apply). This file and everything under src/cli are loaded by the bin alone: the library's
 * entries never import them, nor commander, csv-parse, string-width or asciichart.
 *
 * @example
 * ```sh
 * npx scholarly-metrics --mock journals list
 * npx scholarly-metrics papers search --q climate --all --format jsonl --output climate.jsonl --resume
 * ```
 */
import { processIO } from './io.js';
import { quietly } from './quiet-warnings.js';

// commander imports node:util, whose first load warns where NO_COLOR and FORCE_COLOR are both set.
const { run } = await quietly(() => import('./main.js'));

/** How long what a run leaves behind may keep the process once its output is out. */
const leftoverMs = 500;

/** Calls `then` once every write so far to stdout and stderr is done (a pipe may still be taking them). */
function afterOutput(then: () => void): void {
  let pending = 2;
  const one = () => {
    if (--pending === 0) then();
  };
  process.stdout.write('', one);
  process.stderr.write('', one);
}

const io = processIO();
run(process.argv.slice(2), io).then((code) => {
  // After Ctrl-C nothing left running (a request never answered, a silent socket) may hold the exit.
  if (io.signal.aborted) process.exit(code);
  process.exitCode = code;
  // Nor, once the output is out, what an OpenTelemetry exporter left behind (a retry's timer, a
  // collector's open socket): the exit is the bin's. An unref'd timer fires only if something does.
  afterOutput(() => setTimeout(() => process.exit(code), leftoverMs).unref());
});
