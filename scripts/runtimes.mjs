// Extra runtimes for the test suite, installed from the npm registry as plain platform packages
// (no install scripts, nothing downloaded from anywhere else) into node_modules/.cache/scholarly-metrics:
// - Node 22: `node-<platform>-<arch>@22`, the binary package behind npm's `node` package. It is NOT
//   added as a devDependency: an aliased `node` dependency would replace node_modules/.bin/node,
//   which puts Node 24 first on PATH for every npm script.
// - Bun: `@oven/bun-<platform>-<arch>`, the binary package behind npm's `bun` package.
// - Deno: `@deno/<platform>-<arch>`, the binary package behind npm's `deno` package.
// - workerd: `@cloudflare/workerd-<platform>-<arch>`, the binary package behind npm's `workerd` package.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
// Under node_modules/.cache, where tools keep caches: outside git, biome and tsc, and gone with node_modules.
export const cache = join(root, 'node_modules', '.cache', 'scholarly-metrics');

/** npm, run by the Node that runs this script (npm scripts set npm_execpath). */
function npm(args, options = {}) {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /\.(c?js|mjs)$/.test(execPath) ? [process.execPath, [execPath]] : ['npm', []];
  return spawnSync(command, [...prefix, ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    ...options,
  });
}

function installedVersion(dir, name) {
  const manifest = join(dir, 'node_modules', name, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/**
 * Installs `name@range` into node_modules/.cache/scholarly-metrics/<folder> unless a matching version is there already, and returns
 * the path of its binary, `binary` being relative to the package's folder (or undefined when npm could not install it).
 */
function ensurePackage(folder, name, range, binary, accepts) {
  const dir = join(cache, folder);
  const bin = join(dir, 'node_modules', name, binary);
  const current = installedVersion(dir, name);
  if (current !== undefined && accepts(current) && existsSync(bin)) return bin;
  process.stdout.write(`Installing ${name}@${range} into ${dir} …\n`);
  const result = npm([
    'install',
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    '--prefix',
    dir,
    `${name}@${range}`,
  ]);
  return result.status === 0 && existsSync(bin) ? bin : undefined;
}

/** Node 22's binary for this machine, installed on first use. */
export function ensureNode22() {
  const name = `node-${process.platform}-${process.arch}`;
  const bin = ensurePackage('node22', name, '22', 'bin/node', (v) => v.startsWith('22.'));
  if (bin === undefined) throw new Error(`could not install ${name}@22 from the npm registry`);
  return bin;
}

/**
 * The oldest Node the package's `engines` field takes (`>=22`: 22.0.0), installed on first use: what
 * a user on it gets is checked by a smoke run, not the whole suite (vitest itself needs a later 22).
 */
export function ensureOldestNode() {
  const name = `node-${process.platform}-${process.arch}`;
  // That release's package.json spells its version with a leading "v".
  const bin = ensurePackage(
    'node22-oldest',
    name,
    '22.0.0',
    'bin/node',
    (v) => v.replace(/^v/, '') === '22.0.0',
  );
  if (bin === undefined) throw new Error(`could not install ${name}@22.0.0 from the npm registry`);
  return bin;
}

/**
 * The compiler (`bin/tsc`) of TypeScript `version`, installed on first use: the declarations are
 * checked by the oldest TypeScript the package supports and by the newest, beside the repository's.
 */
export function ensureTypeScript(version) {
  const bin = ensurePackage(`typescript-${version}`, 'typescript', version, 'bin/tsc', (v) => v === version);
  if (bin === undefined) throw new Error(`could not install typescript@${version} from the npm registry`);
  return bin;
}

/** Bun's binary for this machine, or undefined when no package fits or npm cannot install it. */
export function ensureBun() {
  const arch = { x64: 'x64', arm64: 'aarch64' }[process.arch];
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform];
  if (arch === undefined || platform === undefined) return undefined;
  let name = `@oven/bun-${platform}-${arch}`;
  // x64 builds need AVX2; the "baseline" build runs on any x64 CPU.
  if (arch === 'x64' && platform === 'linux' && !/\bavx2\b/.test(safeRead('/proc/cpuinfo'))) {
    name += '-baseline';
  }
  return ensurePackage('bun', name, '1', platform === 'windows' ? 'bin/bun.exe' : 'bin/bun', (v) =>
    v.startsWith('1.'),
  );
}

/**
 * Deno 2.9 for this machine: `{ name, bin }`, `name` undefined when the registry has no package for
 * this platform, `bin` undefined when there is none or npm could not install it.
 */
export function ensureDeno() {
  const target = {
    'linux-x64': 'linux-x64-glibc',
    'linux-arm64': 'linux-arm64-glibc',
    'darwin-x64': 'darwin-x64',
    'darwin-arm64': 'darwin-arm64',
    'win32-x64': 'win32-x64',
    'win32-arm64': 'win32-arm64',
  }[`${process.platform}-${process.arch}`];
  if (target === undefined) return { name: undefined, bin: undefined };
  const name = `@deno/${target}`;
  // This package keeps its binary at its root, not under bin/.
  const binary = process.platform === 'win32' ? 'deno.exe' : 'deno';
  return { name, bin: ensurePackage('deno', name, '~2.9', binary, (v) => v.startsWith('2.9.')) };
}

/** workerd (Cloudflare's Workers runtime) for this machine: `{ name, bin }`, as {@link ensureDeno}. */
export function ensureWorkerd() {
  const target = {
    'linux-x64': 'linux-64',
    'linux-arm64': 'linux-arm64',
    'darwin-x64': 'darwin-64',
    'darwin-arm64': 'darwin-arm64',
    'win32-x64': 'windows-64',
  }[`${process.platform}-${process.arch}`];
  if (target === undefined) return { name: undefined, bin: undefined };
  const name = `@cloudflare/workerd-${target}`;
  const binary = process.platform === 'win32' ? 'bin/workerd.exe' : 'bin/workerd';
  return { name, bin: ensurePackage('workerd', name, '1', binary, (v) => v.startsWith('1.')) };
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Runs `command args` with inherited output; resolves to its exit status. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** The version a binary reports (`--version`), trimmed. */
export function versionOf(bin) {
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${bin} --version failed: ${result.stderr || result.error}`);
  return result.stdout.trim();
}

export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Stops a runtime's tests (Deno, workerd) when the runtime cannot be had: `{ name, bin }` from
 * ensureDeno or ensureWorkerd. Where the registry has no package for this platform, a loud notice and
 * exit 0. Where it has one but npm could not install it: a failure in CI (CI=true); elsewhere a loud
 * notice and exit 0, so that `npm test` still runs everything else (as for Chromium).
 */
export function stopUnlessInstalled(runtime, { name, bin }) {
  if (bin !== undefined) return bin;
  const bar = '!'.repeat(78);
  const why =
    name === undefined
      ? `the npm registry has no ${runtime} package for ${process.platform}-${process.arch}`
      : `${name} could not be installed from the npm registry`;
  process.stderr.write(`\n${bar}\n!!  ${runtime.toUpperCase()} TESTS NOT RUN: ${why}\n${bar}\n\n`);
  if (name !== undefined && inCi) {
    process.stderr.write(`CI=true: ${runtime} is required in CI where the registry has it.\n`);
    process.exit(1);
  }
  process.exit(0);
}

/** Stops with a clear message when dist/ has not been built: the runtime tests pack it. */
export function requireBuild(script) {
  for (const file of ['index.js', 'webhooks.js', 'testing.js']) {
    if (!existsSync(join(root, 'dist', file))) {
      process.stderr.write(`${script} packs the built package: run \`npm run build\` first.\n`);
      process.exit(1);
    }
  }
}

/**
 * `npm pack`s the work tree's package (with its current dist/) into `project`, then installs that
 * tarball there as a user would, its dependencies from the registry, into a project of its own
 * (`{ "type": "module" }`). Returns the tarball's file name.
 */
export function installPackedPackage(project) {
  const packed = npm(['pack', '--json', '--pack-destination', project], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error('npm pack failed');
  const [{ filename }] = JSON.parse(packed.stdout);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'runtime-smoke', private: true, type: 'module' }, null, 2)}\n`,
  );
  const installed = npm(
    ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', `./${filename}`],
    { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (installed.status !== 0) throw new Error(`npm install of ${filename} failed`);
  return filename;
}

/**
 * What `test:deno` and `test:workerd` start with: a build to pack, the runtime (or a stop, as
 * {@link stopUnlessInstalled} decides), and a fresh project outside the repository, where the
 * repository's tsconfig cannot mislead the runtime and packages resolve as in a user's project.
 * `install()` then packs the package into it with every file of test/runtimes (each runtime's entry and
 * the modules they share), and returns the tarball's name. The caller removes `project`.
 */
export function prepareRuntimeProject(script, runtime, installed) {
  requireBuild(script);
  const bin = stopUnlessInstalled(runtime, installed);
  process.stdout.write(`${script}: ${versionOf(bin).split('\n')[0]} (${bin})\n`);
  const project = mkdtempSync(join(tmpdir(), `scholarly-metrics-${runtime.toLowerCase()}-`));
  const install = () => {
    const tarball = installPackedPackage(project);
    const runtimes = join(root, 'test', 'runtimes');
    for (const file of readdirSync(runtimes)) copyFileSync(join(runtimes, file), join(project, file));
    return tarball;
  };
  return { bin, project, install };
}

/**
 * Runs `command args` with inherited output, killed if it outlives `limitMs`; resolves to
 * `{ code, ms, timedOut }`. Not detached: Ctrl+C reaches it too.
 */
export function runWithTimeLimit(command, args, options, limitMs) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limitMs);
    // Never leave the runtime behind if this script dies first.
    const onExit = () => child.kill('SIGKILL');
    process.once('exit', onExit);
    const settle = () => {
      clearTimeout(timer);
      process.off('exit', onExit);
    };
    child.once('error', (error) => {
      settle();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      settle();
      resolve({ code: code ?? (signal ? 1 : 0), ms: performance.now() - started, timedOut });
    });
  });
}
