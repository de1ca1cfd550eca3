// A Redis that stops answering without dying (SIGSTOP: the TCP connection stays open, no reply ever
// comes), over node-redis and ioredis: calls settle within their timeout, close() refuses a call
// whose question Redis holds at once, and after SIGCONT the quota works again with nothing left held.
import { describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { redisClients, useRedis } from '../helpers/redis-clients.js';
import { skipWithoutRedis } from '../helpers/redis-server.js';
import { TEST_KEY } from '../support.js';

const skip = skipWithoutRedis('test/redis/frozen.test.ts');
const identity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

describe.skipIf(skip).each(redisClients)('a frozen Redis over $name', { timeout: 60_000 }, (kind) => {
  const db = useRedis(kind);
  let prefixes = 0;

  /** Runs `during` with the db.server stopped (SIGSTOP), and lets it go on (SIGCONT) whatever happens. */
  async function frozen<T>(during: () => Promise<T>): Promise<T> {
    const pid = db.server.pid;
    if (pid === undefined) throw new Error('the test’s redis-server is not running');
    process.kill(pid, 'SIGSTOP');
    try {
      return await during();
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }
  const count = async (pattern: string, type: 'ZCARD') => {
    const [key] = await db.redis.keys(pattern);
    return key === undefined ? 0 : Number(await db.redis.command([type, key]));
  };

  /** A quota of its own (a fresh key prefix), its part for the test's client used once already. */
  const usedQuota = async () => {
    const prefix = `z${++prefixes}`;
    const quota = new RedisQuota({ redis: db.redis.client, maxConcurrency: 2, prefix });
    const part = quota.forClient(identity);
    await part.run(async () => 0);
    return { prefix, quota, part };
  };

  it('a call rejects within its timeout, sending nothing; after SIGCONT calls work again', async () => {
    const { prefix, quota, part } = await usedQuota();
    let sent = false;
    const error = await frozen(() =>
      part.run(async () => (sent = true), { signal: undefined, timeout: 300 }).catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect((error as Error).message).toBe('Redis did not answer within 300 ms; nothing was sent');
    expect(sent).toBe(false);
    // The question Redis held is answered after SIGCONT, and the ticket's end follows it.
    expect(await part.run(async () => 'again')).toBe('again');
    await quota.close();
    expect(await count(`${prefix}:*:l`, 'ZCARD')).toBe(0);
    expect(await count(`${prefix}:*:q`, 'ZCARD')).toBe(0);
  });

  it('close() refuses at once a call whose question Redis holds, and resolves after SIGCONT', async () => {
    const { prefix, quota, part } = await usedQuota();
    let sent = false;
    let closing: Promise<unknown> = Promise.resolve();
    const outcome = await frozen(async () => {
      const call = part.run(async () => (sent = true), { signal: undefined, timeout: 30_000 });
      const settled = call.then(
        () => 'resolved',
        (e: unknown) => e,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      closing = quota.close().then(
        () => 'closed',
        (e: unknown) => e,
      );
      // Settled while Redis still holds the question: by close(), since the call's own timeout is far off.
      return settled;
    });
    expect(outcome).toBeInstanceOf(QuotaUnavailableError);
    expect((outcome as Error).message).toMatch(/quota was closed/);
    expect(sent).toBe(false);
    // Redis answers again: close() sends the call's end (it leaves the line, holds no place) and resolves.
    expect(await closing).toBe('closed');
    expect(await count(`${prefix}:*:l`, 'ZCARD')).toBe(0);
    expect(await count(`${prefix}:*:q`, 'ZCARD')).toBe(0);
  });
});
