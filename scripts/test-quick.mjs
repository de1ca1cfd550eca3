// `npm run test:quick`: the Node suite without coverage and without the suites that start real
// processes or servers (the command line's, Redis's, the docs' command lines, the examples, the proxy,
// the load test, the package checks, the mock's command); `npm test` runs those.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const slow = [
  /^test\/browser\//,
  /^test\/cli\//,
  /^test\/redis\//,
  /^test\/package\//,
  /^test\/docs\/cli-[^/]*\.test\.ts$/,
  /^test\/integration\/(examples|proxy)\.test\.ts$/,
  /^test\/reliability\/load\.test\.ts$/,
  /^test\/testing\/cli\.test\.ts$/,
  /^test\/cache\/redis\.test\.ts$/,
];
const files = globSync('test/**/*.test.ts', { cwd: root })
  .map((file) => file.replaceAll('\\', '/'))
  .filter((file) => !slow.some((pattern) => pattern.test(file)))
  .sort();
const result = spawnSync(
  process.execPath,
  [`${root}/node_modules/vitest/vitest.mjs`, 'run', '--project', 'node*', ...files, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
