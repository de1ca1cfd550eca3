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
import { run } from './main.js';

const { io, dispose } = processIO();
run(process.argv.slice(2), io).then((code) => {
  dispose();
  // After Ctrl-C nothing left running (a request never answered, a silent socket) may hold the exit.
  if (io.signal.aborted) process.exit(code);
  process.exitCode = code;
});
