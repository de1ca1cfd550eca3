/**
 * Serves examples/browser/index.html, the built SDK and the mock API, on two loopback origins,
 * so the page calls the API cross-origin exactly as it would call the real service.
 *
 *   npm run build && node examples/browser/serve.ts      then open the printed address
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
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
const pages = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === '/config.json') {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ baseUrl: mock.url, apiKey: MOCK_API_KEY }));
    return;
  }
  const relative =
    path === '/' ? 'examples/browser/index.html' : normalize(decodeURIComponent(path)).slice(1);
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
});
await new Promise<void>((resolve) => pages.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));

console.log(`page:     http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);
console.log(`mock API: ${mock.url}`);
console.log('Press Ctrl+C to stop.');
process.once('SIGINT', () => {
  pages.closeAllConnections();
  pages.close();
  void mock.close();
});
