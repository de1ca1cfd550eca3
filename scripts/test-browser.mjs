// `npm run test:browser`: the browser project of vitest.config.ts (the built package in Chromium,
// against the mock API over real HTTP). Needs a Chromium binary: Debian's package, at /usr/bin/chromium
// (or $CHROMIUM_PATH). Playwright never downloads a browser here.
//
// Without Chromium: in CI (CI=true) this fails; elsewhere it prints a loud notice and exits 0, so that
// `npm test` still runs everything else on a machine without it.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inCi } from './runtimes.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (!executable(chromium)) {
  const bar = '!'.repeat(78);
  const lines = [
    bar,
    `!!  BROWSER TESTS NOT RUN: no Chromium at ${chromium}`,
    '!!',
    '!!  Install it (Debian/Ubuntu, as root):  apt-get update && apt-get install -y chromium',
    '!!  or point CHROMIUM_PATH at a Chromium/Chrome binary, then: npm run test:browser',
    bar,
  ];
  process.stderr.write(`\n${lines.join('\n')}\n\n`);
  if (inCi) {
    process.stderr.write('CI=true: a missing browser is a failure in CI.\n');
    process.exit(1);
  }
  process.exit(0);
}

if (!existsSync(`${root}/dist/index.js`) || !existsSync(`${root}/dist/webhooks.js`)) {
  process.stderr.write('test:browser runs the built package: run `npm run build` first.\n');
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  // One page at a time, whatever vitest.config.ts allows the Node suite: the test files share one
  // controlled mock (test/browser/global-setup.ts), where a fault one file queues would meet another's
  // requests.
  [
    `${root}/node_modules/vitest/vitest.mjs`,
    'run',
    '--project',
    'browser',
    '--maxWorkers=1',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
