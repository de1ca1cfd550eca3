// `npm test`: every step CI runs, in phases. A phase holds lanes that run side by side; the steps of
// a lane run one after another. Steps share nothing but the build (each packs and installs into a
// folder of its own). Each run of the suite keeps both cores nearly busy on its own, so the short
// steps share one lane beside it rather than each taking a core, split so that both lanes of a phase
// end near the same time. A step's output is printed whole when it ends, then how long each took.
//
//   npm test                  everything, stopping after the first phase that fails
//   npm test -- --sequential  one step at a time, in the same order (to time a step alone)
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const phases = [
  // The build is what later phases test; lint and the type check need none of it.
  [['lint', 'typecheck'], ['build']],
  // The suite on Node 24, with coverage, beside the runtimes' smoke tests (which mostly wait) and
  // the packed package's checks.
  [
    ['test:unit'],
    [
      'test:browser',
      'size',
      'test:bun',
      'test:deno',
      'test:workerd',
      'test:package',
      'test:api',
      'docs:check',
    ],
  ],
  // The suite again on Node 22 (every test, without coverage), beside the declarations' compiles.
  [['test:node22'], ['test:types']],
];

// Steps with no time limit of their own (compiles, packing, the docs' check) run at a lower priority:
// they take the cores the suite leaves idle while it waits on processes and sockets, instead of
// stretching the suite's timed waits, which set how long a phase takes.
const background = new Set(['test:package', 'test:api', 'test:types', 'docs:check']);
const backgroundNice = 10;

const sequential = process.argv.includes('--sequential');
const npm = process.env.npm_execpath;
const timings = [];

function run(script) {
  const started = performance.now();
  const [command, args] =
    npm && /\.(c?js|mjs)$/.test(npm) ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    // Set before npm starts the step's own processes, which inherit it. Where it cannot be set, the
    // step runs at the usual priority.
    if (background.has(script) && !sequential && child.pid !== undefined) {
      try {
        setPriority(child.pid, backgroundNice);
      } catch {}
    }
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
/** Runs a lane's steps one after another, stopping at the first that fails. */
async function runLane(lane) {
  for (const script of lane) if (!(await run(script))) return false;
  return true;
}

for (const phase of phases) {
  const results = sequential ? [await runLane(phase.flat())] : await Promise.all(phase.map(runLane));
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
