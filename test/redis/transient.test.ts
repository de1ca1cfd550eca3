// A Redis Cluster's transient answers (TRYAGAIN, MOVED, ASK, CLUSTERDOWN, LOADING) are asked again
// within the call's timeout; every other failure is reported at once, in Redis's words and its error
// class. The Redis here is a plain object with the client's methods: no server needed.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import type { NodeRedisLike } from '../../src/redis/adapter.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { TEST_KEY } from '../support.js';

const identity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };

/** node-redis's class of error replies, by name: the quota sees only its name and text. */
class ErrorReply extends Error {}
/** node-redis's command timeout: its message is empty. */
class TimeoutError extends Error {}

/** A node-redis-shaped client answering each script call with the next of `answers`, then `rest`. */
function fakeRedis(answers: Array<() => unknown>, rest: () => unknown) {
  const calls: string[] = [];
  /** How each script was sent: `EVAL` (whole) or `EVALSHA`. */
  const sends: string[] = [];
  const answer = async (send: string, args: string[]) => {
    calls.push(args[0] ?? '');
    sends.push(send);
    return (answers.shift() ?? rest)();
  };
  const client: NodeRedisLike = {
    evalSha: (_sha, { arguments: args }) => answer('EVALSHA', args),
    eval: (_script, { arguments: args }) => answer('EVAL', args),
  };
  // An acquire's first argument is its ticket (`pid.random.n`); the other scripts' are numbers or words.
  const acquires = () => calls.filter((first) => first.includes('.')).length;
  return { client, calls, sends, acquires };
}

const refuse = (error: Error) => () => {
  throw error;
};
const granted = () => [0, 0];
const attempt = (timeout: number) => ({ signal: undefined, timeout });

describe('a Redis Cluster’s transient answers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'MOVED 3999 127.0.0.1:6381',
    'ASK 3999 127.0.0.1:6381',
    'CLUSTERDOWN The cluster is down',
    'LOADING Redis is loading the dataset in memory',
    // ioredis, past its maxRedirections during a long migration.
    'Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot',
  ])('%s twice, then the script’s reply: the call succeeds', async (text) => {
    const error = () => refuse(new ErrorReply(text));
    const redis = fakeRedis([error(), error()], granted);
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    let sent = 0;
    await quota.forClient(identity).run(async () => sent++, attempt(5_000));
    expect(sent).toBe(1);
    expect(redis.acquires()).toBe(3);
  });

  it.each([
    'NOSCRIPT No matching script. Please use EVAL.',
    // ioredis, when a node restarted while it followed redirections: its script cache is empty.
    'Too many Cluster redirections. Last error: ReplyError: NOSCRIPT No matching script. Please use EVAL.',
  ])('%s: the script is sent whole again, and the call succeeds', async (text) => {
    // Fake timers: an end waits for the next start, never for the short idle, so the sends are the acquires'.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const redis = fakeRedis([granted, refuse(new ErrorReply(text))], granted);
    const part = new RedisQuota({ redis: redis.client, maxConcurrency: 2 }).forClient(identity);
    await part.run(async () => 0, attempt(5_000));
    const before = redis.sends.length;
    await expect(part.run(async () => 'sent', attempt(5_000))).resolves.toBe('sent');
    // The second acquire by its SHA-1, refused, then sent whole, which loads it again.
    expect(redis.sends.slice(before)).toEqual(['EVALSHA', 'EVAL']);
  });

  it('a call aborted during the backoff after a transient answer sends no acquire again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const redis = fakeRedis([refuse(new ErrorReply('TRYAGAIN Multiple keys request'))], granted);
    const controller = new AbortController();
    const part = new RedisQuota({ redis: redis.client, maxConcurrency: 1 }).forClient(identity);
    const call = part.run(async () => 'sent', { signal: controller.signal, timeout: 5_000 }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(5);
    expect(redis.acquires()).toBe(1);
    controller.abort(new Error('the caller gave up'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await call).toMatchObject({ message: 'the caller gave up' });
    expect(redis.acquires()).toBe(1);
  });

  it('a call that stopped waiting before Redis answered NOSCRIPT does not send its acquire whole', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answer!: () => void;
    const late = () =>
      new Promise((_, reject) => {
        answer = () => reject(new ErrorReply('NOSCRIPT No matching script. Please use EVAL.'));
      });
    const redis = fakeRedis([granted, late], granted);
    const part = new RedisQuota({ redis: redis.client, maxConcurrency: 2 }).forClient(identity);
    await part.run(async () => 0, attempt(5_000));
    const controller = new AbortController();
    const call = part.run(async () => 'sent', { signal: controller.signal, timeout: 5_000 }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(0);
    const acquires = redis.acquires();
    controller.abort(new Error('the caller gave up'));
    answer();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await call).toMatchObject({ message: 'the caller gave up' });
    expect(redis.acquires()).toBe(acquires);
  });

  it('asks again no longer than the call’s timeout, then names what Redis said', async () => {
    // The backoff's sleeps and the deadline on fake timers and a fake monotonic clock: exact, however loaded.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const redis = fakeRedis([], refuse(new ErrorReply('CLUSTERDOWN Hash slot not served')));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    let sent = false;
    let settled = false;
    const call = quota
      .forClient(identity)
      .run(async () => (sent = true), attempt(300))
      .catch((e: unknown) => e)
      .finally(() => {
        settled = true;
      });
    // It stops asking once the next backoff would end past the deadline: settled by then, not after.
    await vi.advanceTimersByTimeAsync(300);
    expect(settled).toBe(true);
    const error = await call;
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect(sent).toBe(false);
    expect(redis.acquires()).toBeGreaterThan(2);
  });

  it.each([
    ['ErrorReply', 'WRONGTYPE Operation against a key'],
    ['Error', 'Too many Cluster redirections. Last error: ReplyError: WRONGTYPE Operation against a key'],
  ])('reports any other error reply at once, with its class and text: %s: %s', async (name, text) => {
    const reply = name === 'Error' ? new Error(text) : new ErrorReply(text);
    const redis = fakeRedis([], refuse(reply));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    const error = await quota
      .forClient(identity)
      .run(async () => 0, attempt(5_000))
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(`Redis failed (${name}: ${text}); nothing was sent`);
    expect(redis.acquires()).toBe(1);
  });

  it('keeps the command a client attaches to its error (a failed AUTH’s password) out of the cause', async () => {
    const password = 'hunter2-redis-password';
    const reply = Object.assign(new ErrorReply('WRONGPASS invalid username-password pair'), {
      command: { name: 'hello', args: ['3', 'AUTH', 'default', password] },
    });
    const redis = fakeRedis([], refuse(reply));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    const error = (await quota
      .forClient(identity)
      .run(async () => 0, attempt(5_000))
      .catch((e: unknown) => e)) as QuotaUnavailableError;
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect(inspect(error, { depth: 20 })).not.toContain(password);
    expect(error.cause).toBeInstanceOf(ErrorReply);
    expect((error.cause as Error).message).toBe(reply.message);
    // The client's own error is left as it was.
    expect(reply.command.args).toContain(password);
  });

  it('keeps the command out of each error down the cause chain, and of a chain that loops', async () => {
    const password = 'hunter2-redis-password';
    const withCommand = (message: string, cause?: unknown) =>
      Object.assign(new Error(message, { cause }), { command: { name: 'auth', args: [password] } });
    const inner = withCommand('inner');
    const middle = new Error('middle', { cause: inner });
    const looping = withCommand('looping');
    looping.cause = looping;
    const failure = async (reply: Error) =>
      (await new RedisQuota({ redis: fakeRedis([], refuse(reply)).client, maxConcurrency: 2 })
        .forClient(identity)
        .run(async () => 0, attempt(5_000))
        .catch((e: unknown) => e)) as QuotaUnavailableError;
    const chain = await failure(new ErrorReply('NOAUTH Authentication required.', { cause: middle }));
    const loop = await failure(looping);
    // Past eight causes the command is no longer looked for: the chain is cut there.
    let deep: Error = withCommand('deepest');
    for (let i = 0; i < 10; i++) deep = new Error(`wrapper ${i}`, { cause: deep });
    const long = await failure(deep);
    for (const error of [chain, loop, long]) expect(inspect(error, { depth: 30 })).not.toContain(password);
    expect(chain.cause).toBeInstanceOf(ErrorReply);
    const copied = (chain.cause as Error).cause as Error;
    expect([copied.message, (copied.cause as Error).message]).toEqual(['middle', 'inner']);
    expect((loop.cause as Error).message).toBe('looping');
    // The client's own errors are left as they were.
    expect(inner.command.args).toContain(password);
  });

  it('rejects, its cause left out, when the chain cannot be read; a copy keeps the stack as text', async () => {
    const { proxy, revoke } = Proxy.revocable(new Error('gone'), {});
    revoke();
    const unreadable = new ErrorReply('ERR something', { cause: proxy });
    const commanded = Object.assign(new ErrorReply('WRONGPASS'), { command: { name: 'auth', args: ['x'] } });
    const failure = async (reply: Error) =>
      (await new RedisQuota({ redis: fakeRedis([], refuse(reply)).client, maxConcurrency: 2 })
        .forClient(identity)
        .run(async () => 0, attempt(1_000))
        .catch((e: unknown) => e)) as QuotaUnavailableError;
    const refused = await failure(unreadable);
    expect(refused).toBeInstanceOf(QuotaUnavailableError);
    expect(refused.cause).toBeUndefined();
    const copied = (await failure(commanded)).cause as Error;
    expect(copied).not.toBe(commanded);
    expect(copied.stack).toBe(commanded.stack);
  });

  it('names an error with an empty message by its class, never “no reason given”', async () => {
    const redis = fakeRedis([], refuse(new TimeoutError()));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    const error = await quota
      .forClient(identity)
      .run(async () => 0, attempt(5_000))
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Redis failed (TimeoutError); nothing was sent');
  });

  it('close() says that the ends did not reach Redis, not that nothing was sent', async () => {
    const oom = "OOM command not allowed when used memory > 'maxmemory'.";
    const redis = fakeRedis([granted], refuse(new ErrorReply(oom)));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    let sent = false;
    await quota.forClient(identity).run(async () => (sent = true), attempt(5_000));
    expect(sent).toBe(true);
    const closed = await quota.close().catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(QuotaUnavailableError);
    expect((closed as Error).message).toBe(
      `Redis failed (ErrorReply: ${oom}); the ends of the last calls did not reach it: a place Redis gave them stays held until its lease ends`,
    );
  });

  it('close() and stats() say the same', async () => {
    const redis = fakeRedis([refuse(new TimeoutError()), granted], refuse(new TimeoutError()));
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2 });
    const stats = await quota.stats().catch((e: unknown) => e);
    expect((stats as Error).message).toBe('Redis failed (TimeoutError); no stats read');
    const part = quota.forClient(identity);
    await part.run(async () => 0, attempt(5_000));
    part.pause(1_000);
    const closed = await quota.close().catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(QuotaUnavailableError);
    expect((closed as Error).message).toMatch(/^Redis failed \(TimeoutError\); /);
  });
});
