// `npm start`: builds the package if dist/ is missing or older than src/, starts the mock API on a
// free loopback port, runs examples/quickstart.ts against it, then two commands of the command line
// (dist/cli.js, the `scholarly-metrics` bin) against the same mock, and exits with the tour's exit
// code. The server is closed whatever happens.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtFiles = ['index.js', 'webhooks.js', 'testing.js', 'cli.js'].map((file) =>
  join(root, 'dist', file),
);

/** The tour's last stop: the command line an analyst would type, as they would type it. */
const commandLines = [
  ['journals', 'list', '--limit', '5', '--fields', 'id,name,quartile,total_cites'],
  [
    'papers',
    'search',
    'coral',
    'reefs',
    '--limit',
    '5',
    '--fields',
    'doi,year,citations,title',
    '--format',
    'csv',
  ],
];

/** Newest modification time under a directory, in ms. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function needsBuild() {
  if (!builtFiles.every((file) => existsSync(file))) return true;
  const built = Math.min(...builtFiles.map((file) => statSync(file).mtimeMs));
  return newest(join(root, 'src')) > built;
}

/** Runs a command, resolving to its exit code (signals count as failure). */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function build() {
  process.stdout.write('Building the package (dist/ is missing or older than src/)…\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const chunks = [];
  const child = spawn(npm, ['run', 'build'], { cwd: root, shell: process.platform === 'win32' });
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  child.stderr.on('data', (chunk) => chunks.push(chunk));
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0) {
    // The build's own output only when it failed: on success it is noise before the tour.
    process.stderr.write(Buffer.concat(chunks));
    throw new Error(`npm run build failed with exit code ${code}`);
  }
}

/** Node flags that let this Node run a .ts file; type stripping is on by default from 22.18 and 23.6. */
function typeScriptFlags() {
  const flags = ['--disable-warning=ExperimentalWarning'];
  if (!process.features.typescript) flags.push('--experimental-strip-types');
  return flags;
}

async function main() {
  if (needsBuild()) await build();
  const { startMockServer, MOCK_API_KEY } = await import(
    pathToFileURL(join(root, 'dist', 'testing.js')).href
  );
  const server = await startMockServer({ port: 0, control: true });
  const stop = () => {
    void server.close().then(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const env = { ...process.env, METRIC_BASE_URL: server.url, METRIC_API_KEY: MOCK_API_KEY };
  try {
    const code = await run(
      process.execPath,
      [...typeScriptFlags(), join(root, 'examples', 'quickstart.ts')],
      {
        stdio: 'inherit',
        env,
      },
    );
    if (code !== 0) return code;
    process.stdout.write('\nThe same API from a shell (docs/cli.md), against the same mock:\n');
    for (const args of commandLines) {
      process.stdout.write(`\n$ scholarly-metrics ${args.join(' ')}\n`);
      const status = await run(process.execPath, [join(root, 'dist', 'cli.js'), ...args], {
        stdio: 'inherit',
        env,
      });
      if (status !== 0) return status;
    }
    return 0;
  } finally {
    await server.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
