import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const alias = fileURLToPath(new URL('./src-alias.mjs', import.meta.url));

/** Runs an example as a user would, but against the sources (see src-alias-hooks.mjs). */
function runExample(
  file: string,
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  // Without METRIC_* variables each example starts a mock of its own, as after a fresh clone.
  const { METRIC_BASE_URL: _baseUrl, METRIC_API_KEY: _apiKey, ...rest } = process.env;
  const env = { ...rest, ...extraEnv };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--import', alias, file],
      { cwd: root, env, timeout: hangGuardMs },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// Each example is a fresh Node process that compiles the sources: slow on a busy machine, where a
// tighter guard failed runs that were only slow. The guard is for a hang; it judges no speed.
const hangGuardMs = 240_000;

describe.concurrent('the examples run to the end and exit 0', { timeout: hangGuardMs + 10_000 }, () => {
  it('quickstart.ts: the whole tour, webhook included', async () => {
    const { code, stdout, stderr } = await runExample('examples/quickstart.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const heading of ['1. ', '2. ', '3. ', '4. ', '5. ', '6. ', 'Done.'])
      expect(stdout).toContain(heading);
    expect(stdout).toMatch(/\[#{24}\] \d+ papers/);
    expect(stdout).toContain('NotFoundError: 404 Not Found: No journal with id 999999');
    expect(stdout).toMatch(
      /received score_updated: journal \d+, \d+ → \d+ \(Q\d\) at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
    );
  });

  it('pagination.ts', async () => {
    const { code, stdout } = await runExample('examples/pagination.ts');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^5\. authors 21–40/m);
  });

  it('error-handling.ts: one line per error class', async () => {
    const { code, stdout } = await runExample('examples/error-handling.ts');
    expect(code).toBe(0);
    for (const name of [
      'NotFoundError',
      'BadRequestError',
      'InvalidParameterError',
      'AuthenticationError',
      'PermissionDeniedError',
      'InternalServerError',
      'RateLimitError, retry after 120 s',
      'ConnectionError',
      'TimeoutError',
      'ResponseValidationError',
    ]) {
      expect(stdout).toContain(name);
    }
    expect(stdout).toMatch(/two 503s, then success \(retried\)\s+ok/);
  });

  it('bulk-dois.ts: found, not found and not a DOI, in the order given', async () => {
    const { code, stdout, stderr } = await runExample('examples/bulk-dois.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.match(/^(found|not found|not a DOI)(?= )/gm)).toEqual([
      ...Array(5).fill('found'),
      'not found',
      'not a DOI',
    ]);
    expect(stdout).toContain('7 DOIs: 5 found, 1 not found, 1 not a DOI, 0 failed');
  });

  it('webhook-receiver-node.ts and webhook-receiver-fetch.ts', async () => {
    const [node, fetchStyle] = await Promise.all([
      runExample('examples/webhook-receiver-node.ts'),
      runExample('examples/webhook-receiver-fetch.ts'),
    ]);
    expect(node.code).toBe(0);
    expect(node.stdout).toMatch(/journal 3 went (up|down): \d+ → 88/);
    expect(fetchStyle.code).toBe(0);
    expect(fetchStyle.stdout).toContain('delivered: 200');
    expect(fetchStyle.stdout).toContain('a body without the fields: 400');
  });

  it.skipIf(skipWithoutRedis('many-workers.ts in test/integration/examples.test.ts'))(
    'many-workers.ts: worker processes share one Redis quota; the mock sends no 429',
    async () => {
      const redis = await startRedisServer();
      try {
        const { code, stdout, stderr } = await runExample('examples/many-workers.ts', {
          REDIS_URL: redis.url,
        });
        expect(stderr).toBe('');
        expect(code).toBe(0);
        expect(stdout).toContain('4 workers harvested 48 of 48 papers');
        expect(stdout).toContain('429 answers from the API: 0');
      } finally {
        await redis.close();
      }
    },
  );
});
