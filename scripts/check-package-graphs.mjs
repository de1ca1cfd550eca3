// Part of `npm run test:package` (scripts/check-package.mjs calls it): the import graphs inside the
// tarball. Each entry reaches only what its users may load; the bin's packages are bundled into the
// bin alone; the packed dependencies are exactly ky, p-retry and zod, each imported by the build.
import { bareImportsOf, importGraph } from './check-package-tar.mjs';
import { cliPackageNames, cliPackagePattern } from './cli-packages.mjs';

// The command line's dependencies load from its bin alone (dist/cli.js, a build of its own); the Redis
// clients are the user's: no entry imports them, `.` and `./webhooks` least of all.
const cliOnly = [cliPackagePattern];
const redisClients = [/^redis$/, /^@redis\//, /^ioredis$/];

/** Each entry with the bare imports it must not reach. */
const entryRules = [
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
];

const binFiles = /^dist\/(cli\.js|cli-chunks\/)/;
const importsCliPackage = (specifier) => cliOnly.some((pattern) => pattern.test(specifier));

/** Checks each entry's graph: no forbidden package, no client where it has none, no command line. */
function checkEntries(files, { pass, fail }) {
  for (const [entry, forbidden] of entryRules) {
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
}

/**
 * The bin's packages are bundled into the bin's files alone: every other file (the library's entries,
 * their chunks, the mock server's bin) neither imports them nor holds a bundled copy (esbuild marks
 * each bundled module with a `// node_modules/<package>/…` line). Returns the library's files and the
 * bin's imports, for the dependency check.
 */
function checkBinPackages(files, { pass, fail }) {
  const libraryFiles = [...files.keys()].filter((p) => /^dist\/.*\.c?js$/.test(p) && !binFiles.test(p));
  const reachCli = libraryFiles.filter(
    (path) =>
      [...importGraph(files, path).bare].some(importsCliPackage) ||
      cliPackageNames.some((name) => files.get(path).includes(`// node_modules/${name}/`)),
  );
  if (reachCli.length > 0)
    fail(`library files that import or bundle the bin's packages: ${reachCli.join(', ')}`);
  else pass(`${libraryFiles.length} library files import and bundle none of ${cliPackageNames.join(', ')}`);
  const binImports = new Set(
    [...files.keys()]
      .filter((p) => binFiles.test(p) && p.endsWith('.js'))
      .flatMap((p) => bareImportsOf(files.get(p))),
  );
  const unbundled = [...binImports].filter(importsCliPackage);
  if (unbundled.length > 0) fail(`the bin imports packages it should bundle: ${unbundled.join(', ')}`);
  else pass(`the bin bundles ${cliPackageNames.join(', ')}`);
  return { libraryFiles, binImports };
}

/**
 * Installing the SDK installs three packages (OpenTelemetry and the Redis clients are optional peers),
 * and every one is imported by some built file: users install nothing the build never loads.
 */
function checkDependencies(files, pkg, { libraryFiles, binImports }, { pass, fail }) {
  const dependencies = Object.keys(pkg.dependencies ?? {}).sort();
  if (dependencies.join() !== 'ky,p-retry,zod')
    fail(
      `the packed package.json's dependencies are ${dependencies.join(', ')}: expected exactly ky, p-retry, zod`,
    );
  else pass('the packed package.json depends on ky, p-retry and zod alone');
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
}

/** Runs the graph checks on the tarball's `files` and its `pkg`; reports with `pass` or `fail`. */
export function checkImportGraphs({ files, pkg, pass, fail }) {
  checkEntries(files, { pass, fail });
  const built = checkBinPackages(files, { pass, fail });
  checkDependencies(files, pkg, built, { pass, fail });
}
