/**
 * Serves examples/browser/index.html and the built SDK, and forwards `/api/v1/…` to the mock API
 * adding the key on the way: the page calls its own origin and never holds a key. Do the same in
 * front of the real API, with the key from your server's environment.
 *
 *   npm run build && npx node examples/browser/serve.ts      then open the printed address
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { MOCK_API_KEY, startMockServer } from 'scholarly-metrics/testing';

const root = fileURLToPath(new URL('../..', import.meta.url));
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};
// Only what the page needs: the page itself, the built SDK and the packages in its import map.
const servable = [
  'dist',
  'node_modules/ky',
  'node_modules/p-retry',
  'node_modules/is-network-error',
  'node_modules/zod',
];

const mock = await startMockServer();
// In production: the real API's base URL and process.env.METRIC_API_KEY.
const upstream = { baseUrl: mock.url, apiKey: MOCK_API_KEY };

/** Forwards a GET under /api/v1 to the API with the key added; the browser's own headers stay behind. */
async function forward(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const url = `${upstream.baseUrl}${path.slice('/api/v1'.length)}${new URL(req.url ?? '/', 'http://x').search}`;
  try {
    const answer = await fetch(url, {
      method: req.method,
      headers: { authorization: `Bearer ${upstream.apiKey}`, accept: 'application/json' },
    });
    const kept = ['content-type', 'retry-after', 'x-request-id'].flatMap((name) => {
      const value = answer.headers.get(name);
      return value === null ? [] : [[name, value] as [string, string]];
    });
    res.writeHead(answer.status, Object.fromEntries(kept));
    if (answer.body === null) res.end();
    else Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream<Uint8Array>).pipe(res);
  } catch {
    res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"bad_gateway"}');
  }
}

function serveFile(path: string, res: ServerResponse): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A broken escape (`/%E0`): the request's fault, never the server's end.
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
    return;
  }
  const relative = path === '/' ? 'examples/browser/index.html' : normalize(decoded).slice(1);
  const file = join(root, relative);
  const allowed =
    relative === 'examples/browser/index.html' ||
    servable.some((dir) => relative.startsWith(`${dir}${sep}`) || relative.startsWith(`${dir}/`));
  if (!allowed || !file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}

const pages = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path.startsWith('/api/v1/')) void forward(path, req, res);
  else serveFile(path, res);
});
await new Promise<void>((resolve) => pages.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));

console.log(`page:     http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
console.log(`mock API: ${mock.url} (the page reaches it through /api/v1 on its own origin)`);
console.log('Press Ctrl+C to stop.');
process.once('SIGINT', () => {
  pages.closeAllConnections();
  pages.close();
  void mock.close();
});
