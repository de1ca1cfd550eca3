// `npm run test:deno`: the packed package on Deno 2.9 (test/runtimes/deno.ts, checks in
// test/runtimes/smoke.ts), with Deno installed from the npm registry into
// node_modules/.cache/scholarly-metrics/deno. The mock API runs here, in Node, on 127.0.0.1; Deno gets
// `--allow-net=127.0.0.1` and nothing else, and a client built from explicit options.
//
// Deno is required where the registry has it: if it cannot be installed, CI (CI=true) fails; elsewhere
// this says so loudly and exits 0.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cache, ensureDeno, prepareRuntimeProject, root, runWithTimeLimit } from './runtimes.mjs';

const LIMIT_MS = 30_000;

const { bin: deno, project, install } = prepareRuntimeProject('test:deno', 'Deno', ensureDeno());
let status = 1;
try {
  const tarball = install();
  const { startMockServer, MOCK_API_KEY } = await import(
    pathToFileURL(join(root, 'dist', 'testing.js')).href
  );
  const server = await startMockServer({ port: 0, host: '127.0.0.1', control: true });
  try {
    const denoDir = join(cache, 'deno', 'dir');
    mkdirSync(denoDir, { recursive: true });
    const args = [
      'run',
      '--no-prompt',
      '--no-lock',
      // The test program imports './smoke.js' as tsc wants; this lets Deno find smoke.ts (and its imports).
      '--sloppy-imports',
      '--allow-net=127.0.0.1',
      'deno.ts',
      server.url,
      MOCK_API_KEY,
    ];
    process.stdout.write(`test:deno: ${tarball} installed in ${project}; deno ${args.join(' ')}\n`);
    const run = await runWithTimeLimit(
      deno,
      args,
      {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: '1' },
      },
      LIMIT_MS,
    );
    process.stdout.write(`test:deno: Deno ran for ${(run.ms / 1000).toFixed(2)} s (wall time)\n`);
    if (run.timedOut) process.stderr.write(`test:deno: killed after ${LIMIT_MS / 1000} s\n`);
    status = run.timedOut ? 1 : run.code;
  } finally {
    await server.close();
  }
} finally {
  rmSync(project, { recursive: true, force: true });
}
process.stdout.write(`test:deno: ${status === 0 ? 'passed' : 'FAILED'}\n`);
process.exit(status);
