import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestContext } from 'vitest';
import { MOCK_API_KEY, MOCK_DOIS, startMockServer } from '../../src/testing/index.js';
import { closedPort } from '../helpers/free-port.js';
import { skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { spawnNode } from '../helpers/spawn.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A key as a user of the real service would have exported it: unknown to the mock. */
const realLookingKey = 'sm_live_3f9a1c07d2e84b6b9e5f0a7c1d2e3f40';

/**
 * Runs an example as a user would, against the sources: bundled with them (test/helpers/bundle.ts
 * resolves the package's own names to src/), so that a stale dist/ cannot pass or fail it.
 */
async function runExample(
  context: TestContext,
  file: string,
  extraEnv: Record<string, string> = {},
  args: readonly string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  // Without METRIC_BASE_URL each example starts a mock of its own, as after a fresh clone; a real
  // key the user exported must not stop it (the mock would refuse it) nor travel to the mock.
  const { METRIC_BASE_URL: _baseUrl, METRIC_API_KEY: _apiKey, ...rest } = process.env;
  const { code, stdout, stderr } = await spawnNode(`${root}${file}`, args, {
    cwd: root,
    env: { ...rest, METRIC_API_KEY: realLookingKey, ...extraEnv },
    onTestEnd: context.onTestFinished,
  }).exited;
  return { code: code ?? 1, stdout, stderr };
}

// Each example is a fresh Node process: slow on a busy machine, where a tighter guard failed runs
// that were only slow. The guard is for a hang; it judges no speed.
const hangGuardMs = 240_000;

describe.concurrent('the examples run to the end and exit 0', { timeout: hangGuardMs }, () => {
  it('quickstart.ts: the whole tour, webhook included', async (context) => {
    const { code, stdout, stderr } = await runExample(context, 'examples/quickstart.ts');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const heading of ['1. ', '2. ', '3. ', '4. ', '5. ', '6. ', 'Done.'])
      expect(stdout).toContain(heading);
    expect(stdout).toMatch(/\[#{24}\] \d+ papers/);
    expect(stdout).toContain('NotFoundError: 404 Not Found: No journal with id 999999');
    expect(stdout).toMatch(
      /received score_updated: journal \d+, \d+ → \d+ \(Q\d\) at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/,
    );
  });

  it('browser/serve.ts keeps serving after a path it cannot decode (400): the API through it after', async (context) => {
    const served = spawnNode(`${root}examples/browser/serve.ts`, [], {
      cwd: root,
      env: { ...process.env, PORT: '0' },
      onTestEnd: context.onTestFinished,
    });
    let page: string | undefined;
    while (page === undefined) {
      if (served.child.exitCode !== null) throw new Error(`serve.ts exited: ${served.output().stderr}`);
      page = /page: +(http:\/\/127\.0\.0\.1:\d+\/)/.exec(served.output().stdout)?.[1];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await fetch(`${page}%E0`)).status).toBe(400);
    // The page's own origin forwards /api/v1, adding the key: the server is still there.
    const subjects = await fetch(`${page}api/v1/subjects`);
    expect(subjects.status).toBe(200);
    expect(Array.isArray(await subjects.json())).toBe(true);
  });

  it('pagination.ts', async (context) => {
    const { code, stdout } = await runExample(context, 'examples/pagination.ts');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^5\. authors 21–40/m);
  });

  it('error-handling.ts: one line per error class', async (context) => {
    const { code, stdout } = await runExample(context, 'examples/error-handling.ts');
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

  it('bulk-dois.ts: found, not found and not a DOI, in the order given', async (context) => {
    const { code, stdout, stderr } = await runExample(context, 'examples/bulk-dois.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.match(/^(found|not found|not a DOI)(?= )/gm)).toEqual([
      ...Array(5).fill('found'),
      'not found',
      'not a DOI',
    ]);
    expect(stdout).toContain('7 DOIs: 5 found, 1 not found, 1 not a DOI, 0 failed');
  });

  it('webhook-receiver-node.ts and webhook-receiver-fetch.ts', async (context) => {
    const [node, fetchStyle] = await Promise.all([
      runExample(context, 'examples/webhook-receiver-node.ts'),
      runExample(context, 'examples/webhook-receiver-fetch.ts'),
    ]);
    expect(node.code).toBe(0);
    expect(node.stdout).toMatch(/journal 3 went (up|down): \d+ → 88/);
    expect(fetchStyle.code).toBe(0);
    expect(fetchStyle.stdout).toContain('delivered: 200');
    expect(fetchStyle.stdout).toContain('a body without the fields: 400');
  });

  it.skipIf(skipWithoutRedis('many-workers.ts in test/integration/examples.test.ts'))(
    'many-workers.ts: worker processes share one Redis quota; the mock sends no 429',
    async (context) => {
      const redis = await startRedisServer();
      try {
        const { code, stdout, stderr } = await runExample(context, 'examples/many-workers.ts', {
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

describe('an example given a wrong address', () => {
  // The guard is for a hang (node-redis retries a first connection forever unless told otherwise).
  it('many-workers.ts: a REDIS_URL where no Redis listens ends the run with the error', {
    timeout: 60_000,
  }, async (context) => {
    const { code, stderr } = await runExample(context, 'examples/many-workers.ts', {
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    });
    expect(code).toBe(1);
    expect(stderr).toContain('worker: connect ECONNREFUSED');
    // One line of its own, no stack.
    expect(stderr).toMatch(/^many-workers: worker \d exited with code 1; the others were stopped$/m);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('many-workers.ts with METRIC_BASE_URL set and no DOI given: says so and exits 2', async (context) => {
    const { code, stdout, stderr } = await runExample(context, 'examples/many-workers.ts', {
      METRIC_BASE_URL: 'http://127.0.0.1:1/api/v1',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain('give the DOIs to harvest as arguments');
  });
});

describe.skipIf(
  skipWithoutRedis('many-workers.ts with METRIC_BASE_URL in test/integration/examples.test.ts'),
)('an example given a server of its own', () => {
  it('many-workers.ts harvests the DOIs given as arguments with METRIC_API_KEY', {
    timeout: hangGuardMs,
  }, async (context) => {
    const [redis, mock] = await Promise.all([startRedisServer(), startMockServer({ port: 0 })]);
    try {
      const { code, stdout, stderr } = await runExample(
        context,
        'examples/many-workers.ts',
        { METRIC_BASE_URL: mock.url, METRIC_API_KEY: MOCK_API_KEY, REDIS_URL: redis.url },
        MOCK_DOIS,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toContain(`4 workers harvested ${MOCK_DOIS.length} of ${MOCK_DOIS.length} papers`);
      expect(mock.api.requests.filter((request) => request.status === 200)).toHaveLength(MOCK_DOIS.length);
    } finally {
      await Promise.all([redis.close(), mock.close()]);
    }
  });
});
