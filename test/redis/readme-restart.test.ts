// The README's Redis set-up ("Many processes, one key") survives a Redis restart: its lines up to the
// client run in a process of their own, against a real redis-server and the mock API on 127.0.0.1;
// the test restarts the server between calls. The process lives on, the call in between rejects with
// QuotaUnavailableError, and calls after it work.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_API_KEY, type MockServer, startMockServer } from '../../src/testing/index.js';
import { blocks } from '../docs/markdown.js';
import { build, packageExports, workspace } from '../docs/snippets.js';
import { bundled } from '../helpers/bundle.js';
import { type RedisServer, skipWithoutRedis, startRedisServer } from '../helpers/redis-server.js';
import { tiedToThisProcess } from '../helpers/tied.js';

const skip = skipWithoutRedis('test/redis/readme-restart.test.ts');
const heading = 'Many processes, one key';

/** The README's set-up: its block's lines up to the one that makes the client. */
function readmeSetUp() {
  const block = blocks('README.md').find((b) => b.heading === heading && b.lang === 'ts');
  if (block === undefined) throw new Error(`README.md has no TypeScript block under "${heading}"`);
  const lines = block.code.split('\n');
  const end = lines.findIndex((line) => /new MetricClient\(/.test(line));
  return { block, setUp: lines.slice(0, end + 1).join('\n') };
}

/** Reads the calls' outcomes from stdin commands: `call` prints `ok` or the error's name. */
const driver = `
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'call') continue;
  try {
    await client.journals.list({ timeout: 1_000, maxRetries: 0 });
    console.log('ok');
  } catch (error) {
    console.log((error as Error).name);
  }
}
`;

describe.skipIf(skip)('the README’s Redis set-up', { timeout: 120_000 }, () => {
  let redis: RedisServer;
  let mock: MockServer;
  let child: ChildProcess | undefined;
  let space: ReturnType<typeof workspace>;

  beforeAll(async () => {
    redis = await startRedisServer();
    mock = await startMockServer();
    space = workspace();
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await redis?.close();
    await mock?.close();
    space?.remove();
  });

  it('attaches an error listener and says why', () => {
    const { setUp } = readmeSetUp();
    expect(setUp).toMatch(/\.on\('error'/);
    expect(setUp).toMatch(/\/\/.*restart/);
  });

  it('lives on through a Redis restart: the call in between fails with QuotaUnavailableError, later calls work', async () => {
    const { block, setUp } = readmeSetUp();
    const file = join(space.directory, 'readme-restart.mts');
    writeFileSync(file, build({ ...block, code: `${setUp}\n${driver}` }, await packageExports()).source);
    child = spawn(...tiedToThisProcess(process.execPath, [bundled(file)]), {
      cwd: space.directory,
      env: { ...process.env, REDIS_URL: redis.url, METRIC_API_KEY: MOCK_API_KEY, METRIC_BASE_URL: mock.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const answers: string[] = [];
    const waiting: Array<(line: string) => void> = [];
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = out.slice(0, end);
        out = out.slice(end + 1);
        const next = waiting.shift();
        if (next) next(line);
        else answers.push(line);
      }
    });
    const exited = new Promise<string>((resolve) =>
      child?.once('exit', (code, signal) => resolve(`exited (${code ?? signal}):\n${stderr}`)),
    );
    const call = () => {
      child?.stdin?.write('call\n');
      const answer = new Promise<string>((resolve) => {
        const queued = answers.shift();
        if (queued !== undefined) resolve(queued);
        else waiting.push(resolve);
      });
      return Promise.race([answer, exited]);
    };

    expect(await call()).toBe('ok');
    await redis.stop();
    expect(await call()).toBe('QuotaUnavailableError');
    await redis.start();
    let answer = '';
    for (let i = 0; i < 100 && answer !== 'ok'; i++) {
      answer = await call();
      if (answer !== 'ok') expect(answer).toBe('QuotaUnavailableError');
    }
    expect(answer).toBe('ok');
    expect(await call()).toBe('ok');
    expect(child.exitCode).toBeNull();
    expect(stderr).toContain('Redis:'); // the listener saw the dropped connection
  });
});
