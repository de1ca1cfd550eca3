// Part of `npm run test:package` (scripts/check-package.mjs calls it): `scholarly-metrics/testing` from
// the tarball, installed alone into an empty project, so WITHOUT msw (an optional peer). From `import`
// and from `require`: createMockApi, startMockServer and the `scholarly-metrics-mock` command work, and
// mockHandlers throws a MetricError that says how to install msw.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Starts the installed command, reads the base URL from its first stdout line, makes one request, stops it. */
const CLI_CHECK = `async function checkCli() {
  const child = spawn(join('node_modules', '.bin', 'scholarly-metrics-mock'), ['--port', '0'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    // The command's shebang runs \`node\` from PATH: make it this Node.
    env: { ...process.env, PATH: dirname(process.execPath) + delimiter + process.env.PATH },
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20000);
  try {
    const url = await new Promise((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('\\n')) resolve(output.split('\\n')[0]);
      });
      child.once('error', reject);
      exited.then((status) => reject(new Error('the command ended (' + status + ') before printing its URL')));
    });
    assert.match(url, /^http:\\/\\/127\\.0\\.0\\.1:\\d+\\/api\\/v1$/);
    const response = await fetch(url + '/subjects', { headers: { authorization: 'Bearer ' + MOCK_API_KEY } });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).length, 25);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, 'the command should stop cleanly on SIGTERM');
    return url;
  } finally {
    clearTimeout(deadline);
    child.kill('SIGKILL');
  }
}`;

const COMMON_CHECKS = `
  const api = createMockApi();
  const inProcess = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: api.fetch });
  assert.equal((await inProcess.subjects.list()).length, 25);

  const server = await startMockServer({ port: 0 });
  let journals;
  try {
    journals = await new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url }).journals.list();
  } finally {
    await server.close();
  }
  assert.ok(journals.length > 0);

  assert.throws(
    () => mockHandlers(api),
    (error) => error instanceof MetricError && error.message.includes('npm install -D msw'),
  );
  const cli = await checkCli();
  let message;
  try {
    mockHandlers();
  } catch (error) {
    message = error.message;
  }
  console.log(
    'createMockApi, startMockServer (' + journals.length + ' journals), the command (' + cli + ') OK; mockHandlers: ' +
      message.split(' (loading msw failed')[0],
  );
`;

const ESM = `import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { MetricClient, MetricError } from 'scholarly-metrics';
import { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, mockHandlers, startMockServer } from 'scholarly-metrics/testing';

// msw must really be missing here, or nothing below is proven.
await assert.rejects(import('msw'), { code: 'ERR_MODULE_NOT_FOUND' });
${COMMON_CHECKS}
${CLI_CHECK}
`;

const CJS = `const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { delimiter, dirname, join } = require('node:path');
const { MetricClient, MetricError } = require('scholarly-metrics');
const { createMockApi, MOCK_API_KEY, MOCK_BASE_URL, mockHandlers, startMockServer } = require('scholarly-metrics/testing');

assert.throws(() => require('msw'), { code: 'MODULE_NOT_FOUND' });
(async () => {
${COMMON_CHECKS}
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
${CLI_CHECK}
`;

/**
 * Runs the checks in `consumer` (a project where only the tarball is installed); `pass` and `fail`
 * report each of the two programs.
 */
export async function checkTestingWithoutMsw({ consumer, pass, fail }) {
  const programs = [
    ['testing-esm.mjs', ESM, 'import'],
    ['testing-cjs.cjs', CJS, 'require'],
  ];
  for (const [file, source, how] of programs) {
    writeFileSync(join(consumer, file), source);
    const { code, output } = await runNode(join(consumer, file), { cwd: consumer });
    if (code !== 0) fail(`scholarly-metrics/testing without msw, by ${how} (${file}):\n${output}`);
    else pass(`testing without msw, by ${how}: ${output.trim()}`);
  }
}

/** Runs `file` with this Node; resolves to its exit code and combined output. Killed after 60 s. */
export function runNode(file, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const deadline = setTimeout(() => {
      output += '\n(killed after 60 s)';
      child.kill('SIGKILL');
    }, 60_000);
    child.once('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code: code ?? 1, output });
    });
  });
}
