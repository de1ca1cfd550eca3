/**
 * The memory check of `maxResponseBytes`, run by hostile-input.test.ts in a child process per case:
 *   node --expose-gc --import tsx test/reliability/body-bound-check.mjs <case> [maxResponseBytes]
 *
 * A server on 127.0.0.1 sends a body an attacker or a broken proxy would: an endless one, a gzip bomb
 * (about 1 MiB that expands to 1 GiB), an honest 600 MiB `Content-Length`, an endless 503, or a small
 * list of a million records wrong in every field (whose check must not list every issue). The
 * client reads it with the limit given (default: the client's, 32 MiB) while the script samples RSS, and prints one JSON
 * line: the error's name, the server's request count, whether the server saw the connection closed,
 * and the peak RSS growth over the baseline taken just before the call. One case per process: RSS
 * rarely shrinks, so a case run after another would be measured against the first one's peak.
 */
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { defaultMaxResponseBytes } from '../../src/core/options/request.ts';
import { MetricClient } from '../../src/index.ts';
import { TEST_KEY } from '../helpers/test-key.ts';
import { writeUntilClosed as stream } from './fault-server.ts';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc');
  process.exit(2);
}

const MiB = 1024 * 1024;

/**
 * About 1 MiB of gzip that expands to `size` zero bytes. A gzip file may hold several members, each
 * decompressed in turn (RFC 1952 §2.2): one member of 16 MiB of zeros, repeated, so that neither a
 * 1 GiB buffer nor the CPU to compress one is needed.
 */
function gzipBomb(size) {
  const member = gzipSync(Buffer.alloc(16 * MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: Math.ceil(size / (16 * MiB)) }, () => member));
}

const name = process.argv[2];
const limit = Number(process.argv[3] ?? defaultMaxResponseBytes);
const bomb = name === 'gzip bomb' ? gzipBomb(1024 * MiB) : Buffer.alloc(0);
const filler = Buffer.alloc(64 * 1024, '1,');
const cases = {
  endless: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    return stream(res, filler);
  },
  'gzip bomb': (res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': String(bomb.length),
    });
    res.end(bomb);
  },
  'honest 600 MiB': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * MiB) });
    return stream(res, filler, 600 * MiB);
  },
  'endless 503': (res) => {
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0' });
    return stream(res, filler);
  },
  // 3 MB, far within the limit, of records each wrong in every field: millions of issues to list.
  'a million wrong records': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`[${'{},'.repeat(999_999)}{}]`);
  },
};

if (!Object.hasOwn(cases, name)) {
  console.error(`usage: body-bound-check.mjs <${Object.keys(cases).join(' | ')}>`);
  process.exit(2);
}

let requests = 0;
let closed;
const server = createServer((_req, res) => {
  requests++;
  closed = new Promise((resolve) => res.on('close', () => resolve(true)));
  cases[name](res);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

async function settleMemory() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const client = new MetricClient({
  apiKey: TEST_KEY,
  baseUrl: `http://127.0.0.1:${port}/api/v1`,
  maxRetries: 2,
  timeout: 120_000,
  maxResponseBytes: limit,
});
await settleMemory();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 2);
let error = 'none';
let issues;
try {
  await client.subjects.list();
} catch (caught) {
  error = caught?.name ?? String(caught);
  issues = caught?.issues?.length;
}
peak = Math.max(peak, process.memoryUsage().rss);
clearInterval(sampler);
const connectionClosed = await closed;
await new Promise((resolve) => server.close(resolve));

console.log(
  JSON.stringify({
    case: name,
    limit,
    bomb: bomb.length,
    error,
    issues,
    requests,
    connectionClosed,
    growth: peak - baseline,
  }),
);
