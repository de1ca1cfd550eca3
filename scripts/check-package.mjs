// `npm run test:package`: checks the tarball users will get, not the work tree.
//
// 1. `npm pack` → node_modules/.cache/scholarly-metrics/pack/scholarly-metrics-<version>.tgz
// 2. Its file list: only dist/, openapi/, README, CHANGELOG, LICENSE and package.json; every export
//    target present, with types for import and require.
// 3. publint (every suggestion counts as a problem) and @arethetypeswrong/cli (profile strict: node10,
//    node16 from CJS and from ESM, bundler) on that tarball.
// 4. The entry points' import graphs inside the tarball (scripts/check-package-graphs.mjs): `.` and
//    `./webhooks` import no `node:` module and no msw; `./webhooks` pulls in neither ky, p-retry nor
//    the client; `./redis` only node:crypto and the core, not the client; `./query` no `node:` module
//    and no TanStack package (it uses their types alone); no entry imports redis or ioredis (the user
//    passes the client); no entry reaches the command line's code (dist/cli.js) or its packages (those
//    scripts/cli-packages.mjs lists). Those are bundled into the bin: no file but the bin's imports
//    them or holds a copy of them, and the packed package.json's dependencies are exactly ky, p-retry
//    and zod.
// 5. The tarball installed into an empty project (a temporary folder outside the repository, so that
//    nothing resolves from the repository's node_modules) with npm, its dependencies from
//    the registry: ESM import and CommonJS require of every entry, `scholarly-metrics/openapi.json`,
//    a lookup against the mock API, and the `scholarly-metrics` bin (`--version`, and commands against
//    its built-in mock) with none of its bundled packages installed (scripts/check-package-install.mjs).
// 6. In that project, msw (an optional peer) is not installed: `scholarly-metrics/testing` must still
//    work, from import and require (scripts/check-package-testing.mjs).
// 7. In that project, the CommonJS build loaded as Jest loads it, with no `import()`: what it loads on
//    first use loads there too (scripts/check-package-commonjs.mjs).
// 8. The tarball resolves beside OpenTelemetry's Node SDK and its 3.x packages: the bin's optional
//    peers keep no app on current OpenTelemetry from installing it (scripts/check-package-peers.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { checkImportGraphs } from './check-package-graphs.mjs';
import { checkInstalled } from './check-package-install.mjs';
import { checkBesideOpenTelemetry } from './check-package-peers.mjs';
import { exportTargets, kb, untar } from './check-package-tar.mjs';
import { cache, root } from './runtimes.mjs';
import { bundledPackages, noticesFile } from './third-party-notices.mjs';

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

/** Packs the work tree into `packDir`; returns the tarball's path. Exits when npm cannot pack. */
function pack() {
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  const packed = npm(['pack', '--json', '--pack-destination', packDir]);
  if (packed.status !== 0) {
    process.stderr.write(packed.stderr);
    process.exit(1);
  }
  const [info] = JSON.parse(packed.stdout);
  pass(
    `${info.filename}: ${info.files.length} files, ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked`,
  );
  return join(packDir, info.filename);
}

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

/** Only the files users need, source maps of the SDK alone, every export target with its types. */
function checkContents(files, pkg) {
  const stray = [...files.keys()].filter((path) => !allowed.some((pattern) => pattern.test(path)));
  if (stray.length > 0) fail(`files users do not need: ${stray.join(', ')}`);
  else pass('only dist/, openapi/openapi.json, README.md, CHANGELOG.md, LICENSE, package.json');
  for (const required of ['README.md', 'CHANGELOG.md', 'LICENSE', 'openapi/openapi.json']) {
    if (!files.has(required)) fail(`${required} is missing`);
  }
  const maps = [...files.keys()].filter((path) => path.endsWith('.map'));
  const mapSources = new Set(maps.flatMap((path) => JSON.parse(files.get(path)).sources ?? []));
  const testSources = [...mapSources].filter((source) =>
    /(^|\/)(test|bench|examples|scripts)\//.test(source),
  );
  if (testSources.length > 0) fail(`source maps include test or tooling sources: ${testSources.join(', ')}`);
  else pass(`${maps.length} source maps, none of tests or tooling`);
  checkNotices(files);
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
}

/** Every package bundled into the tarball's files (its source maps name them) has its notice shipped. */
function checkNotices(files) {
  const maps = new Map([...files].filter(([path]) => path.endsWith('.map')));
  const notices = files.get(noticesFile) ?? '';
  const names = bundledPackages(maps).map((folder) => folder.slice(folder.lastIndexOf('node_modules/') + 13));
  const missing = names.filter((name) => !notices.includes(`\n## ${name} `));
  if (missing.length > 0) fail(`${noticesFile} lacks the notice of bundled ${missing.join(', ')}`);
  else pass(`${noticesFile}: the notice of each of the ${names.length} bundled packages`);
}

async function checkPublint(tarball, pkg) {
  const { messages } = await publint({
    pack: { tarball: readFileSync(tarball).buffer },
    level: 'suggestion',
    strict: true,
  });
  for (const message of messages)
    fail(`publint ${message.type}: ${formatMessage(message, pkg, { color: false })}`);
  if (messages.length === 0) pass('publint: no problems');
}

function checkTypes(tarball) {
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
}

step('npm pack');
const tarball = pack();
// Read the tarball's files (a plain tar inside gzip) for the checks below.
const files = untar(gunzipSync(readFileSync(tarball)));
const pkg = JSON.parse(files.get('package.json'));

step('Tarball contents');
checkContents(files, pkg);
step('publint (suggestions count)');
await checkPublint(tarball, pkg);
step('@arethetypeswrong/cli (profile strict)');
checkTypes(tarball);
step('Entry point import graphs');
checkImportGraphs({ files, pkg, pass, fail });
step('Install the tarball into an empty project');
await checkInstalled({ tarball, npm, step, pass, fail });
step('Beside OpenTelemetry: its 3.x packages, and the bin’s export line');
checkBesideOpenTelemetry({ tarball, npm, pass, fail, root });

process.stdout.write('\n');
if (failures.length > 0) {
  process.stderr.write(`test:package: ${failures.length} problem(s)\n`);
  process.exit(1);
}
process.stdout.write('test:package: the packed tarball passed every check\n');
