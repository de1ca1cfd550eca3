// `npm test`: every step CI runs, in phases; the steps of a phase run side by side, since they share
// nothing but the build (each packs and installs into a folder of its own). Most of the steps wait on
// processes, installs and sockets more than they compute, so two at a time overlap those waits on a
// 2-core machine. A step's output is printed whole when it ends, then how long each step took.
//
//   npm test                  everything, stopping after the first phase that fails
//   npm test -- --sequential  one step at a time, in the same order (to time a step alone)
import { spawn } from 'node:child_process';

const phases = [
  // The build is what later phases test; lint and the type check need none of it.
  ['lint', 'typecheck', 'build'],
  // The suite on Node 24, with coverage.
  ['test:unit'],
  // The suite again on Node 22 (every test, without coverage), beside the built package in Chromium.
  ['test:node22', 'test:browser'],
  ['test:package', 'test:types'],
  ['size', 'test:bun', 'docs:check'],
  ['test:deno', 'test:workerd'],
];

const sequential = process.argv.includes('--sequential');
const npm = process.env.npm_execpath;
const timings = [];

function run(script) {
  const started = performance.now();
  const [command, args] =
    npm && /\.(c?js|mjs)$/.test(npm) ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) => {
      output += `\n${error.message}`;
    });
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(`\n──── ${script} (${seconds.toFixed(0)} s, exit ${code}) ────\n${output}`);
      timings.push({ script, seconds, code });
      resolve(code === 0);
    });
  });
}

const started = performance.now();
let passed = true;
for (const phase of phases) {
  const results = [];
  if (sequential) for (const script of phase) results.push(await run(script));
  else results.push(...(await Promise.all(phase.map(run))));
  if (results.includes(false)) {
    passed = false;
    break;
  }
}
const total = (performance.now() - started) / 1000;
process.stdout.write('\nnpm test, step by step:\n');
for (const { script, seconds, code } of timings) {
  process.stdout.write(
    `  ${code === 0 ? '✓' : '✗'} ${script.padEnd(14)} ${seconds.toFixed(0).padStart(5)} s\n`,
  );
}
process.stdout.write(
  `npm test ${passed ? 'passed' : 'FAILED'} in ${Math.floor(total / 60)} min ${Math.round(total % 60)} s (wall time)\n`,
);
process.exit(passed ? 0 : 1);
