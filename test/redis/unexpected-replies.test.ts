// The quota against a server of the test's own that speaks just enough RESP2 for node-redis and ioredis
// to connect, and answers the scripts with what a real Redis never sends: each answer is refused at once
// with QuotaUnavailableError (no polling, no timer past its reach), and error text is shown escaped.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaUnavailableError } from '../../src/index.js';
import { RedisQuota } from '../../src/redis/redis-quota.js';
import { type ConnectedRedis, redisClients } from '../helpers/redis-clients.js';
import { TEST_KEY } from '../support.js';

/** A RESP2 reply, written as the wire carries it. */
type Reply =
  | { int: number | bigint }
  | { bulk: string | null }
  | { simple: string }
  | { error: string }
  | Reply[];

function encode(reply: Reply): string {
  if (Array.isArray(reply)) return `*${reply.length}\r\n${reply.map(encode).join('')}`;
  if ('int' in reply) return `:${reply.int}\r\n`;
  if ('simple' in reply) return `+${reply.simple}\r\n`;
  if ('error' in reply) return `-${reply.error}\r\n`;
  if (reply.bulk === null) return '$-1\r\n';
  return `$${Buffer.byteLength(reply.bulk)}\r\n${reply.bulk}\r\n`;
}

/** Splits the commands (arrays of bulk strings) out of what a client sent; returns what is left over. */
function commands(buffer: string, found: string[][]): string {
  let rest = buffer;
  for (;;) {
    const head = /^\*(\d+)\r\n/.exec(rest);
    if (!head) return rest;
    let at = head[0].length;
    const parts: string[] = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const bulk = /^\$(\d+)\r\n/.exec(rest.slice(at));
      if (!bulk) return rest;
      const start = at + bulk[0].length;
      const end = start + Number(bulk[1]);
      if (rest.length < end + 2) return rest;
      parts.push(rest.slice(start, end));
      at = end + 2;
    }
    found.push(parts);
    rest = rest.slice(at);
  }
}

interface FakeRedis {
  readonly url: string;
  /** What the next scripts are answered. */
  answer: Reply;
  /** Acquire scripts received. */
  acquires: number;
  close(): Promise<void>;
}

/** HELLO's answer in RESP2: the protocol stays 2, whatever was asked. */
const hello: Reply = ['server', 'redis', 'version', '7.0.0', 'proto']
  .map((bulk): Reply => ({ bulk }))
  .concat([{ int: 2 }, { bulk: 'id' }, { int: 1 }, { bulk: 'mode' }, { bulk: 'standalone' }])
  .concat([{ bulk: 'role' }, { bulk: 'master' }, { bulk: 'modules' }, []]);

async function startFakeRedis(): Promise<FakeRedis> {
  const sockets = new Set<Socket>();
  const fake = { answer: [{ int: 0 }, { int: 0 }] as Reply, acquires: 0 } as FakeRedis;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      const found: string[][] = [];
      buffer = commands(buffer + chunk, found);
      for (const [name = '', ...rest] of found) {
        const command = name.toUpperCase();
        if (command === 'EVAL' || command === 'EVALSHA') {
          // An acquire's first argument is its ticket (`pid.random.n`); the other scripts' are not.
          const firstArg = rest[2 + Number(rest[1])] ?? '';
          if (/^\w+\.\w+\.\w+$/.test(firstArg)) fake.acquires++;
          socket.write(encode(fake.answer));
        } else if (command === 'INFO') {
          socket.write(encode({ bulk: '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n' }));
        } else if (command === 'HELLO') {
          socket.write(encode(hello));
        } else socket.write(encode({ simple: 'OK' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(fake, {
    url: `redis://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

const identity = { baseUrl: 'https://api.example.test/api/v1', apiKey: TEST_KEY };
const int = (n: number | bigint) => ({ int: n });

describe.each(redisClients)('answers a real Redis never sends, over $name', (kind) => {
  let fake: FakeRedis;
  let redis: ConnectedRedis;
  let prefixes = 0;

  beforeAll(async () => {
    fake = await startFakeRedis();
    redis = await kind.connect(fake.url);
  });
  afterAll(async () => {
    await redis?.close();
    await fake?.close();
  });

  const cases: [string, Reply][] = [
    ['an unknown code', [int(7), int(0)]],
    ['a wait past any window or pause (1e12 ms)', [int(1), int(1_000_000_000_000)]],
    ['a wait below -1', [int(1), int(-5)]],
    ['a block past a day', [int(2), int(86_400_001)]],
    ['a grant with a wait past any window', [int(0), int(1_000_000_000_000)]],
    ['a string', { simple: 'OK' }],
    // Digits are taken as the numbers they write (ioredis's stringNumbers: string-numbers.test.ts).
    ['strings that write no number', [{ bulk: 'zero' }, { bulk: '0' }]],
    ['a nil', { bulk: null }],
    ['three numbers', [int(0), int(0), int(0)]],
    ['an empty array', []],
  ];

  it.each(cases)('%s: QuotaUnavailableError at once, nothing sent', async (_, answer) => {
    fake.answer = answer;
    const before = fake.acquires;
    const quota = new RedisQuota({ redis: redis.client, maxConcurrency: 2, prefix: `f${++prefixes}` });
    let sent = false;
    const error = await quota
      .forClient(identity)
      .run(
        async () => {
          sent = true;
        },
        { signal: undefined, timeout: 60_000 },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    expect((error as Error).message).toMatch(/Redis answered .* never sends; nothing was sent/);
    expect(sent).toBe(false);
    // Refused on the first answer: no poll, no sleep.
    expect(fake.acquires - before).toBe(1);
  });

  it('shows Redis error text with its control characters escaped', async () => {
    // Clear screen, an OSC 52 clipboard write, a bidi override: none may reach a terminal raw.
    fake.answer = { error: 'ERR \u001b[2J\u001b]52;c;ZXZpbA==\u0007 boom \u202e' };
    const quota = new RedisQuota({ redis: redis.client, prefix: `f${++prefixes}`, maxConcurrency: 1 });
    const error = await quota
      .forClient(identity)
      .run(async () => 0, { signal: undefined, timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain('boom');
    expect(message).toContain('\\u001b[2J');
    expect(message).toContain('\\u202e');
    const raw = [...message].filter((c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e);
    });
    expect(raw).toEqual([]);
  });
});
