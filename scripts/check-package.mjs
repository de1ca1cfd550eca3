// `npm run test:package`: checks the tarball users will get, not the work tree.
//
// 1. `npm pack` → node_modules/.cache/scholarly-metrics/pack/scholarly-metrics-<version>.tgz
// 2. Its file list: only dist/, openapi/, README, CHANGELOG, LICENSE and package.json; every export
//    target present, with types for import and require.
// 3. publint (every suggestion counts as a problem) and @arethetypeswrong/cli (profile strict: node10,
//    node16 from CJS and from ESM, bundler) on that tarball.
// 4. The entry points' import graphs inside the tarball: `.` and `./webhooks` import no `node:` module
//    and no msw; `./webhooks` pulls in neither ky, p-retry nor the client; `./redis` only node:crypto
//    and the core, not the client; `./query` no `node:` module and no TanStack package (it uses
//    their types alone); no entry imports redis or ioredis (the user passes the client); no entry reaches the command line's code (dist/cli.js) or its dependencies (commander,
//    csv-parse, asciichart, string-width; csv-stringify, only a test's now, stays forbidden). Those
//    are bundled into the bin: no file but the bin's imports them or holds a copy of them, and the
//    packed package.json's dependencies are exactly ky, p-retry and zod.
// 5. The tarball installed into an empty project (a temporary folder outside the repository, so that
//    nothing resolves from the repository's node_modules) with npm, its dependencies from
//    the registry: ESM import and CommonJS require of every entry, `scholarly-metrics/openapi.json`,
//    a lookup against the mock API, and the `scholarly-metrics` bin (`--version`, and commands against
//    its built-in mock) with none of its bundled packages installed.
// 6. In that project, msw (an optional peer) is not installed: `scholarly-metrics/testing` must still
//    work, from import and require (scripts/check-package-testing.mjs).
// 7. In that project, the CommonJS build loaded as Jest loads it, with no `import()`: what it loads on
//    first use loads there too (scripts/check-package-commonjs.mjs).
// 8. The tarball resolves beside OpenTelemetry's Node SDK and its 3.x packages: the bin's optional
//    peers keep no app on current OpenTelemetry from installing it (scripts/check-package-peers.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { checkCommonJsWithoutImport } from './check-package-commonjs.mjs';
import { checkBesideOpenTelemetry } from './check-package-peers.mjs';
import { checkTestingWithoutMsw, runNode } from './check-package-testing.mjs';
import { cliPackageNames, cliPackagePattern } from './cli-packages.mjs';
import { cache, root } from './runtimes.mjs';

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

const packDir = join(cache, 'pack');
const failures = [];
const fail = (message) => {
  failures.push(message);
  process.stderr.write(`  ✗ ${message}\n`);
};
const pass = (message) => process.stdout.write(`  ✓ ${message}\n`);
const step = (title) => process.stdout.write(`\n${title}\n`);

function npm(args, options = {}) {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /\.(c?js|mjs)$/.test(execPath) ? [process.execPath, [execPath]] : ['npm', []];
  return spawnSync(command, [...prefix, ...args], { cwd: root, encoding: 'utf8', ...options });
}

// 1. Pack.
step('npm pack');
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir, { recursive: true });
const packed = npm(['pack', '--json', '--pack-destination', packDir]);
if (packed.status !== 0) {
  process.stderr.write(packed.stderr);
  process.exit(1);
}
const [info] = JSON.parse(packed.stdout);
const tarball = join(packDir, info.filename);
pass(
  `${info.filename}: ${info.files.length} files, ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked`,
);

// Read the tarball's files (a plain tar inside gzip) for the checks below.
const files = untar(gunzipSync(readFileSync(tarball)));
const pkg = JSON.parse(files.get('package.json'));

// 2. What the tarball holds.
step('Tarball contents');
const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^dist\/[^/]+$/,
  // The bin's own chunks (tsup.config.ts).
  /^dist\/cli-chunks\/[^/]+$/,
  /^openapi\/openapi\.json$/,
];
const stray = [...files.keys()].filter((path) => !allowed.some((pattern) => pattern.test(path)));
if (stray.length > 0) fail(`files users do not need: ${stray.join(', ')}`);
else pass('only dist/, openapi/openapi.json, README.md, CHANGELOG.md, LICENSE, package.json');
for (const required of ['README.md', 'CHANGELOG.md', 'LICENSE', 'openapi/openapi.json']) {
  if (!files.has(required)) fail(`${required} is missing`);
}
const maps = [...files.keys()].filter((path) => path.endsWith('.map'));
const mapSources = new Set(maps.flatMap((path) => JSON.parse(files.get(path)).sources ?? []));
const testSources = [...mapSources].filter((source) => /(^|\/)(test|bench|examples|scripts)\//.test(source));
if (testSources.length > 0) fail(`source maps include test or tooling sources: ${testSources.join(', ')}`);
else pass(`${maps.length} source maps, none of tests or tooling`);
for (const [subpath, target] of exportTargets(pkg.exports)) {
  const path = posix.normalize(target);
  if (!files.has(path)) fail(`exports["${subpath}"] → ${target} is not in the tarball`);
}
for (const [subpath, conditions] of Object.entries(pkg.exports)) {
  if (typeof conditions === 'string') continue;
  for (const kind of ['import', 'require']) {
    if (!conditions[kind]?.types) fail(`exports["${subpath}"].${kind} has no types`);
  }
}
if (failures.length === 0) pass('every export target is present, with types for import and require');

// 3. publint and attw on the tarball.
step('publint (suggestions count)');
const { messages } = await publint({
  pack: { tarball: readFileSync(tarball).buffer },
  level: 'suggestion',
  strict: true,
});
for (const message of messages)
  fail(`publint ${message.type}: ${formatMessage(message, pkg, { color: false })}`);
if (messages.length === 0) pass('publint: no problems');

step('@arethetypeswrong/cli (profile strict)');
const attw = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'),
    tarball,
    '--format',
    'table-flipped',
  ],
  { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
);
process.stdout.write(attw.stdout.replace(/^/gm, '    '));
if (attw.status !== 0)
  fail(`attw found problems (exit ${attw.status})${attw.stderr ? `: ${attw.stderr}` : ''}`);
else pass('attw: no problems');

// 4. Import graphs inside the tarball.
step('Entry point import graphs');
// The command line's dependencies load from its bin alone (dist/cli.js, a build of its own); the Redis
// clients are the user's: no entry imports them, `.` and `./webhooks` least of all.
const cliOnly = [cliPackagePattern];
const redisClients = [/^redis$/, /^@redis\//, /^ioredis$/];
for (const [entry, forbidden] of [
  ['dist/index.js', [/^node:/, /^msw/, ...cliOnly, ...redisClients]],
  ['dist/index.cjs', [/^node:/, /^msw/, ...cliOnly, ...redisClients]],
  ['dist/webhooks.js', [/^node:/, /^msw/, /^ky$/, /^p-retry$/, /^zod/, ...cliOnly, ...redisClients]],
  ['dist/webhooks.cjs', [/^node:/, /^msw/, /^ky$/, /^p-retry$/, /^zod/, ...cliOnly, ...redisClients]],
  ['dist/testing.js', [...cliOnly, ...redisClients]],
  ['dist/testing.cjs', [...cliOnly, ...redisClients]],
  ['dist/query.js', [/^node:/, /^msw/, /^@tanstack\//, ...cliOnly, ...redisClients]],
  ['dist/query.cjs', [/^node:/, /^msw/, /^@tanstack\//, ...cliOnly, ...redisClients]],
  ['dist/redis.js', [/^node:(?!crypto$)/, /^msw/, /^ky$/, /^p-retry$/, /^zod/, ...cliOnly, ...redisClients]],
  ['dist/redis.cjs', [/^node:(?!crypto$)/, /^msw/, /^ky$/, /^p-retry$/, /^zod/, ...cliOnly, ...redisClients]],
]) {
  const { bare, modules } = importGraph(files, entry);
  const bad = [...bare].filter((specifier) => forbidden.some((pattern) => pattern.test(specifier)));
  const client =
    (entry.startsWith('dist/webhooks') || entry.startsWith('dist/redis')) &&
    [...modules].some((m) => /\bclass MetricClient\b/.test(files.get(m)));
  // src/cli/program.ts's createProgram: the command tree, found by name in any module reached.
  const cli = [...modules].filter(
    (m) => m === 'dist/cli.js' || /\bfunction createProgram\b/.test(files.get(m)),
  );
  if (bad.length > 0) fail(`${entry} reaches ${bad.join(', ')}`);
  else if (client) fail(`${entry} reaches the client (MetricClient)`);
  else if (cli.length > 0) fail(`${entry} reaches the command line's code (${cli.join(', ')})`);
  else pass(`${entry}: ${modules.size} modules, external imports: ${[...bare].join(', ') || 'none'}`);
}

// The bin's packages are bundled into the bin's files alone: every other file (the library's entries,
// their chunks, the mock server's bin) neither imports them nor holds a bundled copy (esbuild marks
// each bundled module with a `// node_modules/<package>/…` line).
const binFiles = /^dist\/(cli\.js|cli-chunks\/)/;
const libraryFiles = [...files.keys()].filter((p) => /^dist\/.*\.c?js$/.test(p) && !binFiles.test(p));
const reachCli = libraryFiles.filter(
  (path) =>
    [...importGraph(files, path).bare].some((specifier) =>
      cliOnly.some((pattern) => pattern.test(specifier)),
    ) || cliPackageNames.some((name) => files.get(path).includes(`// node_modules/${name}/`)),
);
if (reachCli.length > 0)
  fail(`library files that import or bundle the bin's packages: ${reachCli.join(', ')}`);
else pass(`${libraryFiles.length} library files import and bundle none of ${cliPackageNames.join(', ')}`);
const binImports = new Set(
  [...files.keys()]
    .filter((p) => binFiles.test(p) && p.endsWith('.js'))
    .flatMap((p) => bareImportsOf(files.get(p))),
);
const unbundled = [...binImports].filter((specifier) => cliOnly.some((pattern) => pattern.test(specifier)));
if (unbundled.length > 0) fail(`the bin imports packages it should bundle: ${unbundled.join(', ')}`);
else pass(`the bin bundles ${cliPackageNames.join(', ')}`);

// Installing the SDK installs three packages (OpenTelemetry and the Redis clients are optional peers).
const dependencies = Object.keys(pkg.dependencies ?? {}).sort();
if (dependencies.join() !== 'ky,p-retry,zod')
  fail(
    `the packed package.json's dependencies are ${dependencies.join(', ')}: expected exactly ky, p-retry, zod`,
  );
else pass('the packed package.json depends on ky, p-retry and zod alone');

// Every runtime dependency is imported by some built file: users install nothing the build never loads.
const everyImport = new Set();
for (const path of libraryFiles)
  for (const specifier of importGraph(files, path).bare) everyImport.add(specifier);
for (const specifier of binImports) everyImport.add(specifier);
const unused = Object.keys(pkg.dependencies ?? {}).filter(
  (name) => ![...everyImport].some((specifier) => specifier === name || specifier.startsWith(`${name}/`)),
);
if (unused.length > 0)
  fail(`dependencies no built file imports: ${unused.join(', ')} (remove them from "dependencies")`);
else pass(`every dependency is imported by the build (${Object.keys(pkg.dependencies ?? {}).join(', ')})`);

// 5. Install the tarball into an empty project and use it.
step('Install the tarball into an empty project');
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
} else {
  pass('installed with its dependencies from the registry (msw, an optional peer, not installed)');
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
  step('The scholarly-metrics bin');
  writeFileSync(
    join(consumer, 'cli.mjs'),
    `import { execFileSync } from 'node:child_process';
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
console.log('scholarly-metrics --redis without redis installed: ' + redis.stderr.trim());`,
  );
  const bin = await runNode(join(consumer, 'cli.mjs'), { cwd: consumer });
  if (bin.code !== 0) fail(`the scholarly-metrics bin failed:\n${bin.output}`);
  else pass(bin.output.trim());
  step('scholarly-metrics/testing without msw');
  await checkTestingWithoutMsw({ consumer, pass, fail });
  step("CommonJS in a loader without import() (as Jest's)");
  await checkCommonJsWithoutImport({ consumer, pass, fail });
}

step('Beside OpenTelemetry 3');
checkBesideOpenTelemetry({ tarball, npm, pass, fail });

process.stdout.write('\n');
if (failures.length > 0) {
  process.stderr.write(`test:package: ${failures.length} problem(s)\n`);
  process.exit(1);
}
process.stdout.write('test:package: the packed tarball passed every check\n');

// —— helpers ——

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Every file target of an `exports` map, with its subpath. */
function exportTargets(exports, subpath = '.') {
  if (typeof exports === 'string') return [[subpath, exports]];
  return Object.entries(exports).flatMap(([key, value]) =>
    exportTargets(value, key.startsWith('.') ? key : subpath),
  );
}

/** Files of a POSIX tar archive (npm's), without the leading `package/`. */
function untar(buffer) {
  const out = new Map();
  let offset = 0;
  while (offset + 512 <= buffer.length) {
    const header = buffer.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const name = field(0, 100);
    const prefix = field(345, 155);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const path = (prefix ? `${prefix}/${name}` : name).replace(/^package\//, '');
    if (type === '0' || type === '')
      out.set(path, buffer.subarray(offset + 512, offset + 512 + size).toString('utf8'));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/**
 * The packages a file of the bin imports, by its import statements and `import()` calls alone: the
 * packages bundled into it bring text (commander's help, for one) that the loose pattern of
 * `importGraph` would take for imports.
 */
function bareImportsOf(code) {
  const statements = /^(?:import|export)\b[^'"]*?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
  return [...code.matchAll(statements)]
    .map((m) => m[1] ?? m[2])
    .filter((specifier) => !specifier.startsWith('.'));
}

/** Static and dynamic imports and requires reachable from `entry`, among the tarball's files. */
function importGraph(files, entry) {
  const modules = new Set();
  const bare = new Set();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  const visit = (path) => {
    if (modules.has(path)) return;
    const source = files.get(path);
    if (source === undefined) throw new Error(`${path} (imported) is not in the tarball`);
    modules.add(path);
    // Bundled dependencies bring their doc comments, whose examples show imports that are not code.
    // Only comments that open a line are dropped: a string such as '*/*' cannot start one.
    const code = source.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(pattern)) {
      const specifier = match[2];
      if (specifier.startsWith('.')) visit(posix.join(posix.dirname(path), specifier));
      else bare.add(specifier);
    }
  };
  visit(entry);
  return { modules, bare };
}
