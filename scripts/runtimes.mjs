// Extra runtimes for the test suite, installed from the npm registry as plain platform packages
// (no install scripts, nothing downloaded from anywhere else) into node_modules/.cache/scholarly-metrics:
// - Node 22: `node-<platform>-<arch>@22`, the binary package behind npm's `node` package. It is NOT
//   added as a devDependency: an aliased `node` dependency would replace node_modules/.bin/node,
//   which puts Node 24 first on PATH for every npm script.
// - Bun: `@oven/bun-<platform>-<arch>`, the binary package behind npm's `bun` package.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
// Under node_modules/.cache, where tools keep caches: outside git, biome and tsc, and gone with node_modules.
export const cache = join(root, 'node_modules', '.cache', 'scholarly-metrics');

/** npm, run by the Node that runs this script (npm scripts set npm_execpath). */
function npm(args) {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /\.(c?js|mjs)$/.test(execPath) ? [process.execPath, [execPath]] : ['npm', []];
  return spawnSync(command, [...prefix, ...args], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

function installedVersion(dir, name) {
  const manifest = join(dir, 'node_modules', name, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/**
 * Installs `name@range` into node_modules/.cache/scholarly-metrics/<folder> unless a matching version is there already, and returns
 * the path of its binary (or undefined when npm could not install it).
 */
function ensurePackage(folder, name, range, binary, accepts) {
  const dir = join(cache, folder);
  const bin = join(dir, 'node_modules', name, 'bin', binary);
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
  const bin = ensurePackage('node22', name, '22', 'node', (v) => v.startsWith('22.'));
  if (bin === undefined) throw new Error(`could not install ${name}@22 from the npm registry`);
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
  return ensurePackage('bun', name, '1', platform === 'windows' ? 'bun.exe' : 'bun', (v) =>
    v.startsWith('1.'),
  );
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
