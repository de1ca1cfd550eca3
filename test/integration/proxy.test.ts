// The recipes of docs/proxies.md, run for real: the SDK goes through Debian's squid on 127.0.0.1 to the
// mock server on 127.0.0.1, and the test reads squid's own logs.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { cliBin } from '../helpers/bin.js';
import { skipWithout } from '../helpers/real-part.js';
import { spawnNode } from '../helpers/spawn.js';
import { testClient } from '../support.js';
import { proxyPassword, proxyUser, type Squid, squidBinary, startSquid } from './squid.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skip = skipWithout(
  { name: 'squid', present: squidBinary !== undefined, install: 'apt-get install squid' },
  'test/integration/proxy.test.ts',
);

const sizes = { journals: 5, papers: 50, authors: 10, subjects: 3, countries: 5 };

describe.skipIf(skip)('the SDK through a corporate proxy (squid)', { timeout: 120_000 }, () => {
  let dir: string;
  let squid: Squid | undefined;
  let proxyUrl: string;
  /** squid's port that asks for credentials (407 without them). */
  let authProxyUrl: string;
  let mock: MockServer;
  let mockHost: string;

  beforeAll(async () => {
    if (squidBinary === undefined)
      throw new Error('squid is not installed: .ci/run installs it with apt-get');
    mock = await startMockServer({ port: 0, sizes });
    mockHost = new URL(mock.url).host;
    dir = await mkdtemp(join(tmpdir(), 'sm-squid-'));
    squid = await startSquid(squidBinary, dir);
    ({ proxyUrl, authProxyUrl } = squid);
  });

  afterEach(() => mock.api.reset());

  afterAll(async () => {
    await squid?.stop();
    await mock?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** A log's lines about the mock's host. */
  async function proxiedLines(file: string): Promise<string[]> {
    const log = await readFile(join(dir, file), 'utf8').catch(() => '');
    return log.split('\n').filter((line) => line.includes(mockHost));
  }

  /** The lines logged after the first `seen`, once there are at least `count` of them. */
  async function newLines(file: string, seen: number, count: number): Promise<string[]> {
    await expect
      .poll(async () => (await proxiedLines(file)).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(seen + count);
    return (await proxiedLines(file)).slice(seen);
  }

  async function expectNoKeyInSquidLogs(): Promise<void> {
    for (const file of ['access.log', 'with-ids.log', 'cache.log']) {
      const log = await readFile(join(dir, file), 'utf8');
      expect(log.length, file).toBeGreaterThan(0);
      expect(log, file).not.toContain(MOCK_API_KEY);
    }
  }

  it("(a) undici's ProxyAgent, through the client's fetch option", async () => {
    const logged = (await proxiedLines('with-ids.log')).length;
    const proxy = new ProxyAgent(proxyUrl);
    try {
      // The recipe of docs/proxies.md: undici's own fetch, given a URL and init it can read.
      const proxiedFetch: typeof fetch = (input, init) => {
        const request = new Request(input, init);
        return undiciFetch(request.url, {
          method: request.method,
          headers: [...request.headers],
          signal: request.signal,
          dispatcher: proxy,
        }) as unknown as Promise<Response>; // undici's Response, typed apart from the global one
      };
      const options = { fetch: proxiedFetch, maxRetries: 0 };
      const journal = await testClient(options, mock).journals.get(1);
      expect(journal.id).toBe(1);
      await expect(testClient({ ...options, apiKey: null }, mock).journals.get(2)).rejects.toMatchObject({
        status: 401,
      });
      const [ok, refused] = mock.api.requests;
      expect([ok?.status, refused?.status]).toEqual([200, 401]);

      // squid saw both, each with the X-Request-Id the mock sent for it: they went through the proxy.
      const lines = await newLines('with-ids.log', logged, 2);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`GET http://${mockHost}/api/v1/journals/1 `);
      expect(lines[0]).toMatch(/ TCP_MISS\/200 /);
      expect(lines[0]).toContain(ok!.requestId);
      expect(lines[1]).toContain(`GET http://${mockHost}/api/v1/journals/2 `);
      expect(lines[1]).toMatch(/ TCP_MISS\/401 /);
      expect(lines[1]).toContain(refused!.requestId);
      await expectNoKeyInSquidLogs();
    } finally {
      await proxy.close();
    }
  });

  it('(b) NODE_USE_ENV_PROXY=1 with HTTP_PROXY, in a fresh Node process', async () => {
    const logged = (await proxiedLines('access.log')).length;
    const script = join(dir, 'env-proxy-child.mjs');
    await writeFile(
      script,
      [
        "import { MetricClient } from 'scholarly-metrics';",
        '// METRIC_API_KEY and METRIC_BASE_URL come from the environment, as in an app.',
        'const journal = await new MetricClient({ maxRetries: 0 }).journals.get(3);',
        'let anonymous = "no error";',
        'try { await new MetricClient({ apiKey: null, maxRetries: 0 }).journals.get(4); }',
        'catch (error) { anonymous = error.status; }',
        'process.stdout.write(JSON.stringify({ journal: journal.id, anonymous }));',
      ].join('\n'),
    );
    // Whatever proxy settings the machine has are dropped: this process's only route is squid.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name) && !name.startsWith('METRIC_')),
    );
    const env = {
      ...inherited,
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxyUrl,
      NO_PROXY: '',
      METRIC_API_KEY: MOCK_API_KEY,
      METRIC_BASE_URL: mock.url,
    };
    // Bundled with the source (test/helpers/bundle.ts resolves the package's own name to src/).
    const { code, stdout, stderr } = await spawnNode(script, [], { bundle: true, cwd: root, env }).exited;
    // Node 22 warns that its env proxy agent is experimental; nothing else may reach stderr.
    expect(stderr.replace(/^.*(\[UNDICI-EHPA\]|--trace-warnings).*\n/gm, '')).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ journal: 3, anonymous: 401 });
    expect(mock.api.requests.map((r) => r.status)).toEqual([200, 401]);

    // Node tunnels with CONNECT (squid logs the host, not the path); a later Node may forward the
    // request instead. Either way squid carried the traffic to the mock's host and port.
    const lines = await newLines('access.log', logged, 1);
    for (const line of lines) {
      expect(line).toMatch(
        new RegExp(
          `(CONNECT ${escapeRegExp(mockHost)} |GET http://${escapeRegExp(mockHost)}/api/v1/journals/[34] )`,
        ),
      );
    }
    await expectNoKeyInSquidLogs();
  });

  it('(c) the command line with recipe 1: through the proxy, and what a 407 looks like', async () => {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/_proxy$/i.test(name) && !name.startsWith('METRIC_')),
    );
    const cli = async (proxy: string) => {
      const env = {
        ...inherited,
        NODE_USE_ENV_PROXY: '1',
        HTTP_PROXY: proxy,
        NO_PROXY: '',
        METRIC_API_KEY: MOCK_API_KEY,
        METRIC_BASE_URL: mock.url,
        METRIC_LOG: 'off',
      };
      return spawnNode(cliBin, ['journals', 'get', '2', '--format', 'json'], { cwd: root, env }).exited;
    };
    const withUser = (password: string) => authProxyUrl.replace('//', `//${proxyUser}:${password}@`);

    const open = await cli(proxyUrl);
    expect(open.code, open.stderr).toBe(0);
    expect(JSON.parse(open.stdout)).toMatchObject({ id: 2 });
    const authed = await cli(withUser(proxyPassword));
    expect(authed.code, authed.stderr).toBe(0);
    expect(JSON.parse(authed.stdout)).toMatchObject({ id: 2 });
    expect((await proxiedLines('access.log')).some((line) => line.includes(` ${proxyUser} `))).toBe(true);

    const logged = (await proxiedLines('access.log')).length;
    const anonymous = await cli(authProxyUrl);
    expect(anonymous.code).toBe(1);
    // Asked once: a proxy's refusal would be the same on every retry.
    expect(await newLines('access.log', logged, 1)).toEqual([expect.stringContaining('/407 ')]);
    // Node 22 prints its own warning for the proxy agent first (docs/proxies.md says so).
    expect(anonymous.stderr).toMatch(/^error: ConnectionError: .*\(407\)/m);
    expect(anonymous.stderr).toContain(
      `hint: the proxy ${authProxyUrl} (HTTP_PROXY) asks for a user and password (407): set HTTP_PROXY=http://user:password@host:port\n`,
    );
    const wrong = await cli(withUser('wrong-PW'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `hint: the proxy ${authProxyUrl} (HTTP_PROXY) refused its user and password (407): check them in HTTP_PROXY\n`,
    );
    for (const said of [open, authed, anonymous, wrong].map((exit) => exit.stdout + exit.stderr)) {
      expect(said).not.toContain(MOCK_API_KEY);
      expect(said).not.toMatch(/s3cret-PW|wrong-PW/);
    }
    for (const file of ['access.log', 'cache.log']) {
      expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/s3cret-PW|wrong-PW/);
    }
    await expectNoKeyInSquidLogs();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
