// A real 3-master Redis Cluster for the tests that need one: three Debian redis-server processes with
// `--cluster-enabled yes` on free 127.0.0.1 ports (each with its cluster bus at port + 10000, also
// free), no persistence, joined by `redis-cli --cluster create`, and stopped by PID. A master can be
// killed and started again (it keeps its node id in its nodes.conf, and comes back empty), and a
// slot moved between masters as a resharding does. Missing redis-server: see skipWithoutRedis.
import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freeStablePort } from './free-port.js';
import { redisServerBinary, spawnRedisServer } from './redis-server.js';

const run = promisify(execFile);
const redisCli = 'redis-cli';

export interface ClusterNode {
  readonly port: number;
  readonly url: string;
  readonly pid: number | undefined;
  /** `redis-cli -p PORT …` on this node: its output, trimmed. */
  cli(...args: string[]): Promise<string>;
}

export interface RedisCluster {
  readonly nodes: readonly ClusterNode[];
  /** One URL per master, as a cluster client's `rootNodes` take them. */
  readonly urls: readonly string[];
  /** The master serving `slot`. */
  ownerOf(slot: number): Promise<ClusterNode>;
  /**
   * Moves `slot` and its keys to `target`, as `redis-cli --cluster reshard` does: IMPORTING on the
   * target, MIGRATING on the source, `MIGRATE … KEYS …` in batches, then `SETSLOT … NODE` on every master.
   * `whileMigrating` runs once the slot is half-moved (its keys still on the source).
   */
  migrate(slot: number, target: ClusterNode, whileMigrating?: () => Promise<void>): Promise<void>;
  /** Kills a master (SIGKILL). */
  kill(node: ClusterNode): Promise<void>;
  /** Starts a killed master again, on its port, and waits for the cluster to be whole. */
  restart(node: ClusterNode): Promise<void>;
  /** Stops every node and removes their folders. */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a cluster node on `port` in `dir`, resolving once it accepts connections. */
function startNode(port: number, dir: string): Promise<ChildProcess> {
  const cluster = ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf')];
  return spawnRedisServer(port, dir, [...cluster, '--cluster-node-timeout', '2000']);
}

/** Starts a 3-master cluster and waits until every node reports `cluster_state:ok`. */
export async function startRedisCluster(): Promise<RedisCluster> {
  if (redisServerBinary === undefined) {
    throw new Error('redis-server is not installed: .ci/run installs it with apt-get');
  }
  const root = await mkdtemp(join(tmpdir(), 'sm-redis-cluster-'));
  const children = new Map<number, ChildProcess>();
  const nodes: ClusterNode[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freeStablePort(10_000);
      const dir = join(root, String(port));
      await mkdir(dir);
      children.set(port, await startNode(port, dir));
      nodes.push({
        port,
        url: `redis://127.0.0.1:${port}`,
        get pid() {
          return children.get(port)?.pid;
        },
        cli: async (...args) => (await run(redisCli, ['-p', String(port), ...args])).stdout.trim(),
      });
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    await run(redisCli, ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await whole(nodes);
  } catch (error) {
    await stopAll(children);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return clusterOf(nodes, children, root);
}

/** Waits until every node says the cluster is ok and agrees on each slot's owner. */
async function whole(nodes: readonly ClusterNode[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const states = await Promise.all(nodes.map((node) => node.cli('cluster', 'info').catch(() => '')));
    if (states.every((state) => state.includes('cluster_state:ok'))) return;
    await sleep(50);
  }
  throw new Error('the Redis Cluster did not reach cluster_state:ok within 20 s');
}

async function stopAll(children: Map<number, ChildProcess>): Promise<void> {
  await Promise.all([...children.values()].map(stopChild));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

function clusterOf(nodes: ClusterNode[], children: Map<number, ChildProcess>, root: string): RedisCluster {
  const idOf = async (node: ClusterNode) => node.cli('cluster', 'myid');
  async function ownerOf(slot: number): Promise<ClusterNode> {
    const slots = JSON.parse(
      (await run(redisCli, ['-p', String(nodes[0]?.port), '--json', 'cluster', 'slots'])).stdout,
    ) as Array<[number, number, [string, number, string]]>;
    const range = slots.find(([from, to]) => slot >= from && slot <= to);
    const owner = nodes.find((node) => node.port === range?.[2][1]);
    if (owner === undefined) throw new Error(`no master serves slot ${slot}`);
    return owner;
  }
  return {
    nodes,
    urls: nodes.map((node) => node.url),
    ownerOf,
    async migrate(slot, target, whileMigrating) {
      const source = await ownerOf(slot);
      const [sourceId, targetId] = await Promise.all([idOf(source), idOf(target)]);
      await target.cli('cluster', 'setslot', String(slot), 'importing', sourceId);
      await source.cli('cluster', 'setslot', String(slot), 'migrating', targetId);
      await whileMigrating?.();
      for (;;) {
        const keys = (await source.cli('cluster', 'getkeysinslot', String(slot), '100'))
          .split('\n')
          .filter(Boolean);
        if (keys.length === 0) break;
        await source.cli('migrate', '127.0.0.1', String(target.port), '', '0', '5000', 'KEYS', ...keys);
      }
      for (const node of nodes) await node.cli('cluster', 'setslot', String(slot), 'node', targetId);
      await whole(nodes);
    },
    async kill(node) {
      const child = children.get(node.port);
      if (child) await stopChild(child);
    },
    async restart(node) {
      children.set(node.port, await startNode(node.port, join(root, String(node.port))));
      await whole(nodes);
    },
    async close() {
      await stopAll(children);
      await rm(root, { recursive: true, force: true });
    },
  };
}
