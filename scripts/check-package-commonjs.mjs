// Part of `npm run test:package` (scripts/check-package.mjs calls it): the tarball's CommonJS build
// loaded as Jest loads it without --experimental-vm-modules, every module compiled by `vm` with no
// dynamic import callback, so that an `import()` anywhere in it throws. What the build loads on first
// use (the cache, getMany, the telemetry, zod's explanation of a refused body, the cleaning of an error's
// cause, and `node:http` for startMockServer) must load there too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from './check-package-testing.mjs';

const PROGRAM = `const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { createRequire, isBuiltin } = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

const loaded = new Map();
function requireFrom(parent) {
  const resolve = createRequire(parent).resolve;
  return (specifier) => (isBuiltin(specifier) ? require(specifier) : load(resolve(specifier)));
}
function load(path) {
  if (loaded.has(path)) return loaded.get(path).exports;
  const module = { exports: {} };
  loaded.set(path, module);
  if (path.endsWith('.json')) {
    module.exports = JSON.parse(readFileSync(path, 'utf8'));
    return module.exports;
  }
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  const run = vm.compileFunction(readFileSync(path, 'utf8'), params, { filename: path });
  run(module.exports, requireFrom(path), module, path, dirname(path));
  return module.exports;
}

const requireHere = requireFrom(__filename);
const { MetricClient, ConnectionError, ResponseValidationError } = requireHere('scholarly-metrics');
const { MOCK_API_KEY, MOCK_DOIS, startMockServer } = requireHere('scholarly-metrics/testing');

const spans = [];
const tracerProvider = {
  getTracer: () => ({
    startActiveSpan: (name, options, fn) => {
      spans.push(name);
      return fn({ setAttribute() {}, addEvent() {}, setStatus() {}, end() {} });
    },
  }),
};

(async () => {
  // The loader really refuses import(), or nothing below is proven.
  await assert.rejects(vm.compileFunction('return import("node:fs")')(), { code: 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING' });
  const server = await startMockServer({ port: 0 });
  try {
    const client = new MetricClient({ apiKey: MOCK_API_KEY, baseUrl: server.url, cache: true, telemetry: { tracerProvider } });
    await client.journals.get(42);
    assert.equal((await client.journals.get(42).withResponse()).cacheStatus, 'hit');
    const results = await client.papers.getMany(MOCK_DOIS.slice(0, 2));
    assert.deepEqual(results.map((result) => result.paper?.doi), MOCK_DOIS.slice(0, 2));
    assert.ok(spans.includes('journals.get') && spans.includes('papers.getMany'), 'spans: ' + spans.join(', '));
  } finally {
    await server.close();
  }
  const key = 'sm_check_0123456789abcdef';
  const refused = new MetricClient({
    apiKey: key, baseUrl: 'http://x.test/api/v1', maxRetries: 0,
    fetch: async () => Response.json({ id: 'x' }),
  });
  await assert.rejects(refused.journals.get(1), (error) => error instanceof ResponseValidationError && /id: expected an integer/.test(error.message));
  const unreachable = new MetricClient({
    apiKey: key, baseUrl: 'http://x.test/api/v1', maxRetries: 0,
    fetch: async () => { throw new TypeError('refused: Bearer ' + key); },
  });
  await assert.rejects(unreachable.journals.get(1), (error) =>
    error instanceof ConnectionError && error.cause.name === 'TypeError' && error.cause.message === 'refused: Bearer [redacted]');
  console.log('cache, getMany, telemetry, startMockServer, a refused body explained, a cause cleaned');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/** Runs the program in `consumer` (a project where the tarball is installed); reports with `pass` or `fail`. */
export async function checkCommonJsWithoutImport({ consumer, pass, fail }) {
  const file = join(consumer, 'cjs-without-import.cjs');
  writeFileSync(file, PROGRAM);
  const { code, output } = await runNode(file, { cwd: consumer });
  if (code !== 0) fail(`the CommonJS build in a loader without import() (as Jest's):\n${output}`);
  else pass(`CommonJS in a loader without import() (as Jest's): ${output.trim()}`);
}
