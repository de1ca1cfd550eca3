// `npm run test:node22`: the Node test suite (the `node*` projects of vitest.config.ts) on Node 22,
// the other maintained LTS, less the files whose verdict is the same on any Node (vitest.config.ts).
// npm scripts run on Node 24 (the `node` devDependency); this script installs Node 22's binary from
// the npm registry into node_modules/.cache/scholarly-metrics/node22 and runs vitest with it. Then the
// oldest Node the `engines` field takes (22.0.0) runs test/package/oldest-node-smoke.mjs against the
// build: vitest itself needs a later Node 22.
import { ensureNode22, ensureOldestNode, root, run, versionOf } from './runtimes.mjs';

const node22 = ensureNode22();
const version = versionOf(node22);
if (!version.startsWith('v22.')) {
  process.stderr.write(`test:node22: expected Node 22, ${node22} reports ${version}\n`);
  process.exit(1);
}
process.stdout.write(`\ntest:node22: running the node projects on Node ${version} (${node22})\n\n`);

const status = run(
  node22,
  [`${root}/node_modules/vitest/vitest.mjs`, 'run', '--project', 'node*', ...process.argv.slice(2)],
  {
    // test/package/runtime.test.ts prints process.version from inside the test workers and fails if
    // their major version is not this one; vitest.config.ts leaves out the files whose verdict is the
    // same on any Node (`sameOnEveryNode`, test/helpers/suite-plan.ts).
    env: { ...process.env, SCHOLARLY_METRICS_EXPECT_NODE: '22' },
  },
);
process.stdout.write(
  `\ntest:node22: the node projects on Node ${version} ${status === 0 ? 'passed' : 'FAILED'} (less sameOnEveryNode of test/helpers/suite-plan.ts, which the Node 24 run gave)\n`,
);
const oldest = ensureOldestNode();
const smoke = run(oldest, [`${root}/test/package/oldest-node-smoke.mjs`]);
process.stdout.write(
  `test:node22: the oldest Node the engines field takes (${versionOf(oldest)}), a smoke run: ${smoke === 0 ? 'passed' : 'FAILED'}\n`,
);
process.exit(status || smoke);
