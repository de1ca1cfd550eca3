// Part of `npm run test:package` (scripts/check-package.mjs calls it): the tarball installed into an
// empty project (a temporary folder outside the repository, so that nothing resolves from the
// repository's node_modules) with npm, its dependencies from the registry. There: ESM import and
// CommonJS require of every entry, `scholarly-metrics/openapi.json`, a lookup against the mock API, and
// the `scholarly-metrics` bin with none of its bundled packages installed; then the checks of
// scripts/check-package-testing.mjs and scripts/check-package-commonjs.mjs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkCommonJsWithoutImport } from './check-package-commonjs.mjs';
import { checkTestingWithoutMsw, runNode } from './check-package-testing.mjs';
import { cliPackageNames } from './cli-packages.mjs';
import { root } from './runtimes.mjs';

/** Every entry by `import`, with a lookup against the mock API. */
const CONSUMER_ESM = `import assert from 'node:assert/strict';
import MetricClientDefault, { MetricClient, NotFoundError } from 'scholarly-metrics';
import { parseWebhookEvent, WebhookPayloadError } from 'scholarly-metrics/webhooks';
import { createRedisQuota } from 'scholarly-metrics/redis';
import { metricQueries } from 'scholarly-metrics/query';
import { MetricError } from 'scholarly-metrics';
import spec from 'scholarly-metrics/openapi.json' with { type: 'json' };
import pkg from 'scholarly-metrics/package.json' with { type: 'json' };

assert.equal(MetricClientDefault, MetricClient);
const client = new MetricClient();
const journals = await client.journals.list();
assert.ok(journals.length > 0);
await assert.rejects(client.journals.get(999999999), NotFoundError);
assert.throws(() => parseWebhookEvent('{}'), WebhookPayloadError);
// Loads with neither redis nor ioredis installed; its errors are the root's classes.
assert.throws(() => createRedisQuota({ redis: {} }), MetricError);
// No TanStack package installed: the query entry's options are plain objects that call the client.
const options = metricQueries(client).journals.get(journals[0].id);
assert.equal((await options.queryFn({ signal: new AbortController().signal })).id, journals[0].id);
assert.equal(spec.openapi, '3.1.0');
console.log('ESM import of ' + pkg.name + '@' + pkg.version + ': ' + journals.length + ' journals; openapi ' + spec.openapi);
`;

/** Every entry by `require`, with a lookup against the mock API. */
const CONSUMER_CJS = `const assert = require('node:assert/strict');
const { MetricClient, NotFoundError } = require('scholarly-metrics');
assert.equal(require('scholarly-metrics').default, MetricClient);
const { parseWebhookEvent, WebhookPayloadError } = require('scholarly-metrics/webhooks');
const { createRedisQuota } = require('scholarly-metrics/redis');
const { metricQueries } = require('scholarly-metrics/query');
const { MetricError } = require('scholarly-metrics');
const spec = require('scholarly-metrics/openapi.json');

(async () => {
  const client = new MetricClient();
  const subjects = await client.subjects.list();
  assert.ok(subjects.length > 0);
  await assert.rejects(client.papers.get('10.1000/nothing-here'), NotFoundError);
  assert.throws(() => parseWebhookEvent('{}'), WebhookPayloadError);
  assert.throws(() => createRedisQuota({ redis: {} }), MetricError);
  const page = await metricQueries(client).papers.search.page().queryFn({ signal: new AbortController().signal });
  assert.equal(Object.getPrototypeOf(page), Object.prototype);
  assert.equal(spec.openapi, '3.1.0');
  console.log('CommonJS require: ' + subjects.length + ' subjects; openapi ' + spec.openapi);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/** The bin, run as a user runs it: `--version`, and commands against its built-in mock. */
const CONSUMER_BIN = `import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
// The bin's packages are in the bin: installing the SDK installed none of them.
for (const name of ${JSON.stringify(cliPackageNames)})
  if (existsSync('node_modules/' + name)) throw new Error(name + ' was installed with the SDK');
const { version } = JSON.parse(readFileSync('node_modules/scholarly-metrics/package.json', 'utf8'));
const shown = execFileSync('node_modules/.bin/scholarly-metrics', ['--version'], { encoding: 'utf8' }).trim();
if (shown !== version) throw new Error('--version printed ' + shown + ', not ' + version);
console.log('scholarly-metrics --version: ' + shown);
// The score's table loads string-width, and its module asciichart: bundled, left out of the start-up.
const chart = execFileSync('node_modules/.bin/scholarly-metrics', ['--mock', 'journals', 'score', '3', '--format', 'table'], { encoding: 'utf8' });
if (!chart.includes('current')) throw new Error('journals score --format table: ' + chart);
// A csv of DOIs loads csv-parse.
const { MOCK_DOIS } = await import('scholarly-metrics/testing');
writeFileSync('dois.csv', 'title,doi\\nfirst,' + MOCK_DOIS[0] + '\\n');
const papers = execFileSync('node_modules/.bin/scholarly-metrics', ['--mock', 'papers', 'get-many', '--input', 'dois.csv', '--format', 'jsonl'], { encoding: 'utf8' });
if (JSON.parse(papers).doi !== MOCK_DOIS[0]) throw new Error('papers get-many --input dois.csv: ' + papers);
console.log('scholarly-metrics --mock journals score (a table) and papers get-many --input dois.csv');
// A Parquet file loads hyparquet-writer: its first bytes and last are the format's magic.
execFileSync('node_modules/.bin/scholarly-metrics', ['--mock', 'journals', 'list', '-o', 'journals.parquet'], { encoding: 'utf8', stdio: 'pipe' });
const parquet = readFileSync('journals.parquet');
if (parquet.subarray(0, 4).toString() !== 'PAR1' || parquet.subarray(-4).toString() !== 'PAR1') throw new Error('journals list -o journals.parquet wrote no Parquet file');
console.log('scholarly-metrics --mock journals list -o journals.parquet: ' + parquet.length + ' bytes');
const out = execFileSync('node_modules/.bin/scholarly-metrics', ['--mock', 'subjects', 'list', '--format', 'jsonl'], { encoding: 'utf8' });
console.log('scholarly-metrics --mock subjects list: ' + out.trim().split('\\n').length + ' subjects');
// redis, an optional peer, is not installed here: --redis says how to install it (exit 2).
let redis;
try {
  execFileSync('node_modules/.bin/scholarly-metrics', ['--mock', '--redis', 'redis://127.0.0.1:1', 'subjects', 'list'], { encoding: 'utf8', stdio: 'pipe' });
} catch (error) {
  redis = error;
}
if (redis?.status !== 2 || !redis.stderr.includes('npm install redis')) throw new Error('--redis without redis: ' + (redis?.stderr ?? 'exit 0'));
console.log('scholarly-metrics --redis without redis installed: ' + redis.stderr.trim());`;

/** Imports and requires every entry, with the API served by the mock server from dist/testing.js. */
async function checkConsumers(consumer, { pass, fail }) {
  writeFileSync(join(consumer, 'esm.mjs'), CONSUMER_ESM);
  writeFileSync(join(consumer, 'cjs.cjs'), CONSUMER_CJS);
  const { startMockServer, MOCK_API_KEY } = await import(
    pathToFileURL(join(root, 'dist', 'testing.js')).href
  );
  const server = await startMockServer({ port: 0 });
  try {
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const result = await runNode(join(consumer, file), {
        cwd: consumer,
        env: { ...process.env, METRIC_BASE_URL: server.url, METRIC_API_KEY: MOCK_API_KEY },
      });
      if (result.code !== 0) fail(`${file} failed:\n${result.output}`);
      else pass(`${file}: ${result.output.trim()}`);
    }
  } finally {
    await server.close();
  }
}

/**
 * Installs `tarball` with `npm` (check-package.mjs's runner) into an empty project and runs the checks
 * there; `step` titles each, `pass` and `fail` report.
 */
export async function checkInstalled({ tarball, npm, step, pass, fail }) {
  const consumer = mkdtempSync(join(tmpdir(), 'scholarly-metrics-consumer-'));
  process.on('exit', () => rmSync(consumer, { recursive: true, force: true }));
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true }, null, 2)}\n`,
  );
  const installed = npm(['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], {
    cwd: consumer,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (installed.status !== 0) {
    fail(`npm install of the tarball failed:\n${installed.stderr}`);
    return;
  }
  pass('installed with its dependencies from the registry (msw, an optional peer, not installed)');
  await checkConsumers(consumer, { pass, fail });
  step('The scholarly-metrics bin');
  writeFileSync(join(consumer, 'cli.mjs'), CONSUMER_BIN);
  const bin = await runNode(join(consumer, 'cli.mjs'), { cwd: consumer });
  if (bin.code !== 0) fail(`the scholarly-metrics bin failed:\n${bin.output}`);
  else pass(bin.output.trim());
  step('scholarly-metrics/testing without msw');
  await checkTestingWithoutMsw({ consumer, pass, fail });
  step("CommonJS in a loader without import() (as Jest's)");
  await checkCommonJsWithoutImport({ consumer, pass, fail });
}
