// The quota on a real 3-master Redis Cluster (started once for the file), through node-redis's
// createCluster and ioredis's Cluster: limits exact across clients, the quota's slot moved between
// masters mid-run with no call failed, and the slot's master killed and restarted.
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { partitionHash, partitionKeys } from '../../src/redis/keys.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { createMockApi, MOCK_API_KEY } from '../../src/testing/index.js';
import { type RedisCluster, startRedisCluster } from '../helpers/redis-cluster.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { testClient } from '../support.js';

const skip = skipWithoutRedis('test/redis/cluster.test.ts');

interface ClusterClient {
  readonly client: unknown;
  close(): Promise<void>;
}

const kinds = [
  {
    name: 'node-redis createCluster',
    async connect(urls: readonly string[]): Promise<ClusterClient> {
      const client = createCluster({
        rootNodes: urls.map((url) => ({ url, socket: { reconnectStrategy: () => 50 } })),
      });
      client.on('error', () => {});
      await client.connect();
      return { client, close: async () => client.destroy() };
    },
  },
  {
    name: 'ioredis Cluster',
    async connect(urls: readonly string[]): Promise<ClusterClient> {
      const nodes = urls.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) }));
      // Few redirections, soon: ioredis gives up mid-migration in the slot-moved test, as its
      // defaults (16, 100 ms apart) do when a migration outlasts them.
      const client = new Cluster(nodes, {
        clusterRetryStrategy: () => 50,
        maxRedirections: 4,
        retryDelayOnTryAgain: 20,
      });
      client.on('error', () => {});
      await new Promise<void>((resolve, reject) => {
        client.once('ready', resolve);
        client.once('error', reject);
      });
      return { client, close: async () => client.disconnect() };
    },
  },
] as const;

const windows = (minuteMs: number) => ({ minuteMs, dayMs: 86_400_000 });

describe.skipIf(skip)('the Redis quota on a 3-master Redis Cluster', { timeout: 90_000 }, () => {
  let cluster: RedisCluster;
  let runs = 0;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  /** A fresh identity, prefix and mock for one test: its own slot, most likely. */
  function fresh(limits: Parameters<typeof createMockApi>[0] = {}) {
    const api = createMockApi(limits);
    const identity = { baseUrl: api.baseUrl, apiKey: MOCK_API_KEY };
    const prefix = `cl${++runs}`;
    const [key] = partitionKeys(prefix, partitionHash(identity));
    /** A client of the mock on `quota`, retrying nothing: every failure is the quota's to show. */
    const clientOn = (quota: RedisQuota, options: { timeout?: number } = {}) =>
      testClient({ quota, maxRetries: 0, ...options }, api);
    return { api, identity, prefix, key: key as string, clientOn };
  }
  const slotOf = async (key: string) => Number(await cluster.nodes[0]?.cli('cluster', 'keyslot', key));

  describe.each(kinds)('over $name', (kind) => {
    it('limits exact across three clients: no 429 at the mock’s own window', async () => {
      const windowMs = 1_500;
      const { api, prefix, clientOn } = fresh({ limits: { perWindow: { requests: 6, windowMs } } });
      const connections = await Promise.all([1, 2, 3].map(() => kind.connect(cluster.urls)));
      try {
        const clients = connections.map((c) =>
          clientOn(
            new RedisQuota({ redis: c.client as never, prefix, maxRequestsPerMinute: 6 }, windows(windowMs)),
          ),
        );
        const calls = clients.flatMap((client) => Array.from({ length: 4 }, () => client.subjects.list()));
        await Promise.all(calls);
        expect(api.requests.map((r) => r.status)).toEqual(Array(12).fill(200));
      } finally {
        await Promise.all(connections.map((c) => c.close()));
      }
    });

    it('the quota’s slot moved to another master mid-run: no call fails', async () => {
      const { prefix, key, clientOn } = fresh();
      const connection = await kind.connect(cluster.urls);
      try {
        const quota = new RedisQuota({
          redis: connection.client as never,
          prefix,
          maxConcurrency: 2,
          maxRequestsPerMinute: 10_000,
        });
        const client = clientOn(quota);
        await client.subjects.list(); // the keys exist, in the slot to move
        const slot = await slotOf(key);
        const owner = await cluster.ownerOf(slot);
        const to = cluster.nodes.find((node) => node !== owner);
        if (to === undefined) throw new Error('a 3-master cluster has another master');
        let stop = false;
        const failures: unknown[] = [];
        let done = 0;
        const worker = async () => {
          while (!stop) {
            await client.subjects.list().then(
              () => done++,
              (error: unknown) => failures.push(error),
            );
          }
        };
        const workers = [worker(), worker(), worker()];
        await cluster.migrate(slot, to, () => new Promise((resolve) => setTimeout(resolve, 300)));
        const doneAtMove = done;
        // Calls go on after the move, on the new master.
        while (done < doneAtMove + 10 && failures.length === 0) await new Promise((r) => setTimeout(r, 20));
        stop = true;
        await Promise.all(workers);
        expect(failures).toEqual([]);
        expect((await cluster.ownerOf(slot)).port).toBe(to.port);
        expect(done).toBeGreaterThan(10);
        await quota.close();
      } finally {
        await connection.close();
      }
    });

    it('the slot’s master killed: calls reject with QuotaUnavailableError rather than wait, then work again', async () => {
      const { api, prefix, key, clientOn } = fresh();
      const connection = await kind.connect(cluster.urls);
      try {
        const quota = new RedisQuota({ redis: connection.client as never, prefix, maxConcurrency: 4 });
        const client = clientOn(quota, { timeout: 1_000 });
        await client.subjects.list();
        const owner = await cluster.ownerOf(await slotOf(key));
        await cluster.kill(owner);
        const sentBefore = api.requests.length;
        // A call that waited on the dead master for ever would hold the test to its own timeout.
        const error = await client.subjects.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(QuotaUnavailableError);
        expect((error as Error).message).not.toMatch(/no reason given/);
        expect(api.requests.length).toBe(sentBefore);
        await cluster.restart(owner);
        let answered = false;
        for (let i = 0; i < 100 && !answered; i++) {
          answered = await client.subjects.list().then(
            () => true,
            () => false,
          );
          if (!answered) await new Promise((r) => setTimeout(r, 100));
        }
        expect(answered).toBe(true);
        await quota.close();
      } finally {
        await connection.close();
      }
    });
  });
});
