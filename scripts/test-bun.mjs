// `npm run test:bun`: a smoke test of the built package on Bun (test/package/bun-smoke.ts), with Bun
// installed from the npm registry into node_modules/.cache/scholarly-metrics/bun. The mock API runs here, in Node; Bun only runs the
// client. If no Bun package fits this machine or npm cannot install it, this says so and exits 0:
// Bun is a best-effort runtime here, while Node 22/24 and the browser are required.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBun, root, versionOf } from './runtimes.mjs';

const bun = ensureBun();
if (bun === undefined) {
  process.stderr.write(
    '\n!!  Bun smoke test NOT RUN: Bun could not be installed from the npm registry here.\n\n',
  );
  process.exit(0);
}
const version = versionOf(bun);
process.stdout.write(`test:bun: Bun ${version} (${bun})\n`);

const { startMockServer, MOCK_API_KEY } = await import(pathToFileURL(join(root, 'dist', 'testing.js')).href);
const server = await startMockServer({ port: 0 });
let status;
try {
  status = await new Promise((resolve, reject) => {
    import('node:child_process').then(({ spawn }) => {
      const child = spawn(bun, ['run', join(root, 'test', 'package', 'bun-smoke.ts')], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, METRIC_BASE_URL: server.url, METRIC_API_KEY: MOCK_API_KEY, METRIC_LOG: 'off' },
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? 1));
    }, reject);
  });
} finally {
  await server.close();
}
process.stdout.write(`test:bun: ${status === 0 ? 'passed' : 'FAILED'}\n`);
process.exit(status);
