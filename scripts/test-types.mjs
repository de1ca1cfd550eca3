// `npm run test:types`: the declarations as a strict TypeScript user gets them, from the packed tarball.
//
// One `npm pack` and one install (scripts/runtimes.mjs) into a project outside the repository, with
// msw (an optional peer) NOT installed; @types/node and TypeScript are this repository's, and so are
// redis, ioredis, keyv (5, and 6 as `keyv6`) and @keyv/redis, linked in for the cases that use them
// (the declarations themselves must import none of them: checked first, by reading them). Inside it,
// one folder per consumer setting, each compiled by `tsc` with strict, exactOptionalPropertyTypes,
// noUncheckedIndexedAccess and skipLibCheck: false (every declaration file checked, but TypeScript's own
// lib files, skipDefaultLibCheck: they hold nothing of ours or of what our declarations import):
//
// | setting    | module                     | lib                | compiler | cases                           |
// | ---------- | -------------------------- | ------------------ | -------- | ------------------------------- |
// | bundler    | esnext, resolution bundler | the default (DOM)  | 6        | shared, esm, readme, msw, query |
// | node16-esm | node16, ESM files          | the default (DOM)  | 7.0.2    | shared, esm, readme, query      |
// | node16-cjs | node16, CommonJS files     | the default (DOM)  | 7.0.2    | shared, cjs                     |
// | no-dom     | node16, ESM files          | es2023 only        | 7.0.2    | shared, esm, readme             |
// | typescript-5.5.4, typescript-7.0.2: as bundler, by that compiler             | shared, esm, readme             |
//
// Those two compilers, the oldest TypeScript the package supports and the newest, come from the npm
// registry on first use (scripts/runtimes.mjs); 6 is the repository's TypeScript, which checks the
// setting most projects use. The newest, native and several times faster, takes the settings whose
// point is the module format or the lib rather than the compiler.
// Cases live in test/types/<group>/*.ts: every file of a group is compiled under each setting that
// lists the group, so a new entry point needs only a new file (in shared/ when it suits CommonJS
// too: no top-level await there). Negative cases are `// @ts-expect-error` lines, which fail the
// compile when the error they expect goes away. `readme` is every TypeScript block of README.md,
// made a module as test/docs does (the package's names it leaves out imported, `client` and `api`
// declared); `msw` has msw itself linked in, to check that mockHandlers() spreads into setupServer;
// `query` has TanStack Query for React (and React's types) linked in, for scholarly-metrics/query in a
// component. @tanstack/query-core, the query entry's optional peer, is linked for every setting: the
// query entry's declarations alone may import it.
import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { blocks } from '../test/docs/markdown.ts';
import { ensureTypeScript, installPackedPackage, requireBuild, root } from './runtimes.mjs';

const compilerOptions = {
  target: 'es2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  noEmit: true,
  types: ['node'],
};

/** TypeScript versions checked beside the repository's own (see `settings`). */
const [oldestTypeScript, newestTypeScript] = ['5.5.4', '7.0.2'];

const settings = [
  {
    name: 'bundler',
    type: 'module',
    options: { module: 'esnext', moduleResolution: 'bundler' },
    groups: ['shared', 'esm', 'readme', 'msw', 'query'],
  },
  {
    name: 'node16-esm',
    tsc: newestTypeScript,
    type: 'module',
    options: { module: 'node16' },
    groups: ['shared', 'esm', 'readme', 'query'],
  },
  {
    name: 'node16-cjs',
    tsc: newestTypeScript,
    type: 'commonjs',
    options: { module: 'node16' },
    groups: ['shared', 'cjs'],
  },
  {
    name: 'no-dom',
    tsc: newestTypeScript,
    type: 'module',
    options: { module: 'node16', lib: ['es2023'] },
    groups: ['shared', 'esm', 'readme'],
  },
  // The oldest TypeScript the package supports (zod 4's own minimum) and the newest, TypeScript 7.
  ...[oldestTypeScript, newestTypeScript].map((version) => ({
    name: `typescript-${version}`,
    tsc: version,
    type: 'module',
    options: { module: 'esnext', moduleResolution: 'bundler' },
    groups: ['shared', 'esm', 'readme'],
  })),
];

// Enough of vitest for the README's test-file example: the point is the SDK's types, not vitest's.
const VITEST_SHIM = `declare module 'vitest' {
  export function test(name: string, fn: () => unknown): void;
  export function it(name: string, fn: () => unknown): void;
  export function describe(name: string, fn: () => unknown): void;
  export function beforeAll(fn: () => unknown): void;
  export function afterAll(fn: () => unknown): void;
  export function afterEach(fn: () => unknown): void;
  // biome-ignore lint/suspicious/noExplicitAny: any matcher chain
  export function expect(value: unknown): any;
}
`;

requireBuild('test:types');
const project = mkdtempSync(join(tmpdir(), 'scholarly-metrics-types-'));
process.on('exit', () => rmSync(project, { recursive: true, force: true }));
const tarball = installPackedPackage(project);
const modules = join(project, 'node_modules');
mkdirSync(join(modules, '@types'), { recursive: true });
// @types/node resolves undici-types from its real path, the repository's node_modules.
symlinkSync(join(root, 'node_modules', '@types', 'node'), join(modules, '@types', 'node'), 'dir');
// What a user brings along for the redis entry, the cache and telemetry (the optional peers redis and
// ioredis, keyv 5 and 6, @keyv/redis, @opentelemetry/api): linked from the repository's devDependencies, offline, each resolving
// its own dependencies from its real path as @types/node does. msw stays out (see the msw group).
for (const [name, as] of [
  ['redis', 'redis'],
  ['ioredis', 'ioredis'],
  ['keyv', 'keyv'],
  ['keyv6', 'keyv6'],
  ['@keyv/redis', '@keyv/redis'],
  ['@opentelemetry/api', '@opentelemetry/api'],
  ['@tanstack/query-core', '@tanstack/query-core'],
  ['@tanstack/react-query', '@tanstack/react-query'],
  ['@types/react', '@types/react'],
]) {
  mkdirSync(join(modules, as, '..'), { recursive: true });
  symlinkSync(join(root, 'node_modules', name), join(modules, as), 'dir');
}
checkDeclarationImports();
const readme = await readmeCases();

const runs = settings.map((setting) => {
  const dir = join(project, setting.name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ type: setting.type }, null, 2)}\n`);
  writeFileSync(join(dir, 'vitest-shim.d.ts'), VITEST_SHIM);
  const files = ['vitest-shim.d.ts'];
  for (const group of setting.groups) {
    const cases = group === 'readme' ? readme : groupCases(group);
    for (const [name, source] of cases) {
      const file = `${group}.${name}`;
      writeFileSync(join(dir, file), source);
      files.push(file);
    }
  }
  if (setting.groups.includes('msw')) {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(root, 'node_modules', 'msw'), join(dir, 'node_modules', 'msw'), 'dir');
  }
  const tsconfig = { compilerOptions: { ...compilerOptions, ...setting.options }, files };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return { setting, dir, count: files.length - 1 };
});

process.stdout.write(`test:types: ${tarball} in ${project}\n`);
const repositoryTsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const tscOf = (setting) => (setting.tsc ? ensureTypeScript(setting.tsc) : repositoryTsc);
let failed = 0;
// Two at a time: each tsc is single-threaded.
for (let i = 0; i < runs.length; i += 2) {
  const results = await Promise.all(runs.slice(i, i + 2).map((run) => compile(run)));
  for (const { run, code, output } of results) {
    if (code === 0) process.stdout.write(`  ✓ ${run.setting.name}: ${run.count} case files compile\n`);
    else {
      failed++;
      process.stderr.write(`  ✗ ${run.setting.name}:\n${output.replace(/^/gm, '      ')}\n`);
    }
  }
}
if (failed > 0) {
  process.stderr.write(`test:types: ${failed} of ${runs.length} settings failed\n`);
  process.exit(1);
}
process.stdout.write(`test:types: every setting compiles (${runs.length})\n`);

/**
 * The declarations import only relative files and the package's own dependencies: a user who has not
 * installed an optional peer (msw, redis, ioredis) must still compile, which the linked packages
 * above would otherwise hide.
 */
function checkDeclarationImports() {
  const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // An entry for users of an optional peer may name its types: only that entry's own declarations.
  const peersOf = { query: ['@tanstack/query-core'] };
  const dist = join(root, 'dist');
  const wrong = [];
  for (const file of readdirSync(dist).filter((name) => /\.d\.c?ts$/.test(name))) {
    const source = readFileSync(join(dist, file), 'utf8');
    const specifiers = source.matchAll(
      /^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm,
    );
    for (const [, fromClause, dynamic] of specifiers) {
      const specifier = fromClause ?? dynamic;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const name = specifier.startsWith('@') ? specifier.split('/', 2).join('/') : specifier.split('/')[0];
      const entry = file.replace(/\.d\.c?ts$/, '');
      if (Object.hasOwn(dependencies, name) || peersOf[entry]?.includes(name)) continue;
      wrong.push(`${file} imports '${specifier}'`);
    }
  }
  if (wrong.length > 0) {
    process.stderr.write(
      `test:types: declarations import what a user may not have:\n  ${wrong.join('\n  ')}\n`,
    );
    process.exit(1);
  }
}

function groupCases(group) {
  const dir = join(root, 'test', 'types', group);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), 'utf8')]);
}

/** README.md's TypeScript blocks as modules: the package's names they leave out imported. */
async function readmeCases() {
  // Every JavaScript entry of package.json's exports, the root first: a new entry needs nothing here.
  const exported = new Map();
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const [subpath, target] of Object.entries(exports)) {
    const file = target?.import?.default;
    if (typeof file !== 'string' || !file.endsWith('.js')) continue;
    const specifier = subpath === '.' ? 'scholarly-metrics' : `scholarly-metrics/${subpath.slice(2)}`;
    const module = await import(pathToFileURL(join(root, file)).href);
    for (const name of Object.keys(module))
      if (name !== 'default' && !exported.has(name)) exported.set(name, specifier);
  }
  const uses = (code, name) => new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}(?![\\w$])`).test(code);
  const declares = (code, name) => new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b`).test(code);
  const imports = (code, name) =>
    new RegExp(`^\\s*import\\s[^;]*?(?<![\\w$])${name.replace('$', '\\$')}(?![\\w$])[^;]*?from`, 'm').test(
      code,
    );
  return blocks('README.md')
    .filter((block) => block.lang === 'ts' || block.lang === 'typescript')
    .map((block) => {
      const { code } = block;
      const missing = new Map();
      for (const [name, specifier] of exported) {
        if (!uses(code, name) || imports(code, name) || declares(code, name)) continue;
        missing.set(specifier, [...(missing.get(specifier) ?? []), name]);
      }
      const prelude = [...missing].map(
        ([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`,
      );
      if (uses(code, 'client') && !declares(code, 'client') && !imports(code, 'client')) {
        prelude.push(`declare const client: import('scholarly-metrics').MetricClient;`);
      }
      if (uses(code, 'api') && !declares(code, 'api') && !imports(code, 'api')) {
        prelude.push(`declare const api: import('scholarly-metrics/testing').MockApi;`);
      }
      const source = `${prelude.join('\n')}\n// README.md:${block.line}\n${code}\nexport {};\n`;
      return [`line-${block.line}.ts`, source];
    });
}

function compile(run) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tscOf(run.setting), '-p', run.dir, '--pretty', 'false'], {
      cwd: run.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ run, code: code ?? 1, output }));
  });
}
