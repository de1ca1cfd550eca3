// `--redis-cluster URL[,URL…]`: the usage errors and the masking of its URLs need no Redis; then a real
// three-master Redis Cluster (Debian's redis-server with --cluster-enabled, joined by
// `redis-cli --cluster create`, a password on every node), started here on free ports and stopped by PID:
// the command's quota lives on the slot's owner, reached from any node given.
import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { skipWithoutRedis, spawnRedisServer } from '../helpers/redis-server.js';
import { run } from './helpers.js';

const password = 'Clu5ter-pw';

describe('scholarly-metrics --redis-cluster: what needs no Redis', () => {
  it('--redis and --redis-cluster exclude each other (exit 2)', async () => {
    const result = await run([
      '--mock',
      '--redis',
      'redis://127.0.0.1:1',
      '--redis-cluster',
      'redis://127.0.0.1:2',
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --redis and --redis-cluster exclude each other: give one\n');
  });

  it('an empty entry in the list is a usage error (exit 2)', async () => {
    for (const list of ['redis://127.0.0.1:1,,redis://127.0.0.1:2', ',', '']) {
      const result = await run(['--mock', '--redis-cluster', list, 'subjects', 'list']);
      expect(result.code, list).toBe(2);
      expect(result.stderr).toMatch(/^error: --redis-cluster expects one or more redis:\/\/ URLs/);
    }
  });

  it('a URL of the list that is not redis://: a usage error naming the flag, the password masked', async () => {
    const result = await run([
      '--mock',
      '--redis-cluster',
      `redis://127.0.0.1:1,http://user:${password}@127.0.0.1:6379`,
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --redis-cluster expects a redis:\/\/ or rediss:\/\/ URL/);
    expect(result.stderr).toContain('http://user:[redacted]@127.0.0.1:6379');
    expect(result.stderr).not.toContain(password);
  });

  it('no node reachable: QuotaUnavailableError naming every node masked, exit 1, --debug and all', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const result = await run([
      '--debug',
      '--mock',
      '--redis-cluster',
      `redis://user:${password}@127.0.0.1:${a},redis://:${password}@127.0.0.1:${b}`,
      '--redis-prefix',
      'mine',
      'subjects',
      'list',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `QuotaUnavailableError: cannot connect to Redis at redis://user:[redacted]@127.0.0.1:${a}, ` +
        `redis://:[redacted]@127.0.0.1:${b}`,
    );
    expect(result.stderr).not.toContain(password);
    expect(result.stderr).not.toContain('no reason given');
  });
});

const exec = promisify(execFile);

/** A redis-server with cluster mode on, a password, in `dir`; resolves once it accepts connections. */
function startNode(dir: string, port: number): Promise<ChildProcess> {
  const cluster = ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`];
  return spawnRedisServer(port, dir, [...cluster, '--requirepass', password, '--masterauth', password]);
}

const skip = skipWithoutRedis('test/cli/redis-cluster.test.ts');

describe.skipIf(skip)('scholarly-metrics --redis-cluster on a real cluster', { timeout: 120_000 }, () => {
  let dir: string;
  let ports: number[] = [];
  const nodes: ChildProcess[] = [];
  const urlOf = (port: number) => `redis://default:${password}@127.0.0.1:${port}`;
  const adminOf = (port: number) =>
    createClient({ url: urlOf(port) })
      .on('error', () => {})
      .connect();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sm-cluster-'));
    ports = [await freePort(), await freePort(), await freePort()];
    for (const port of ports) nodes.push(await startNode(dir, port));
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await exec('redis-cli', [
      '-a',
      password,
      '--no-auth-warning',
      '--cluster',
      'create',
      ...addresses,
      '--cluster-yes',
    ]);
    // Every node agrees the cluster is whole before a command runs.
    for (const port of ports) {
      const admin = await adminOf(port);
      try {
        for (let tries = 0; !/cluster_state:ok/.test(await admin.clusterInfo()); tries++) {
          if (tries > 300) throw new Error(`the cluster never got whole on ${port}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        admin.destroy();
      }
    }
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) {
      if (node.exitCode !== null || node.signalCode !== null) continue;
      const exited = once(node, 'exit');
      process.kill(node.pid!, 'SIGKILL');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The node holding keys of `prefix`, and how many. */
  async function holders(prefix: string): Promise<Array<{ port: number; keys: number }>> {
    const found = [];
    for (const port of ports) {
      const admin = await adminOf(port);
      const keys = await admin.keys(`${prefix}:*`);
      admin.destroy();
      if (keys.length > 0) found.push({ port, keys: keys.length });
    }
    return found;
  }

  it('keeps the quota on one node, reached from any node given, the password shown nowhere', async () => {
    const prefix = `cluster-cli-${process.pid}`;
    const args = ['--mock', '--redis-prefix', prefix, '--max-requests-per-minute', '600'];
    const first = await run(['--redis-cluster', ports.map(urlOf).join(','), ...args, 'subjects', 'list']);
    expect(first.code, first.stderr).toBe(0);
    const [owner, ...others] = await holders(prefix);
    expect(owner).toBeDefined();
    expect(others).toEqual([]);
    // Only a node that does not own the slot given: the client finds the owner, with the same password.
    const elsewhere = ports.find((port) => port !== owner!.port)!;
    const second = await run([
      '--debug',
      '--redis-cluster',
      urlOf(elsewhere),
      ...args,
      'papers',
      'search',
      '--limit',
      '5',
      '--format',
      'jsonl',
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.trim().split('\n')).toHaveLength(5);
    expect(second.stderr).not.toContain(password);
    expect((await holders(prefix)).map((holder) => holder.port)).toEqual([owner!.port]);
  });
});
